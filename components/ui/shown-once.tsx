"use client";

import { useState } from "react";

/** A form's refusal (the error envelope's message), read out as an alert. */
export function FormError({ error }: { error?: { message: string } }) {
  if (!error) return null;
  return (
    <p role="alert" className="text-sm text-red-700 dark:text-red-300">
      {error.message}
    </p>
  );
}

/** A value shown only now (an invite link, a token), with a button that copies it. Key it by the value so a new one starts uncopied. */
export function CopyableValue({ value, testId }: { value: string; testId: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
      <code data-testid={testId} className="break-all rounded bg-white px-2 py-1 text-xs dark:bg-slate-900">
        {value}
      </code>
      <button
        type="button"
        onClick={() => {
          void navigator.clipboard?.writeText(value).then(() => setCopied(true));
        }}
        className="rounded-md border border-slate-300 px-2 py-1 text-xs font-medium hover:bg-white dark:border-slate-600 dark:hover:bg-slate-900"
      >
        {copied ? "Copied" : "Copy"}
      </button>
    </div>
  );
}
