/** A form that revokes one thing (a token, an invite): a hidden id and a red "Revoke" button. */
export function RevokeButton({
  action,
  name,
  value,
  label,
}: {
  action: (formData: FormData) => void | Promise<void>;
  name: string;
  value: string;
  label?: string;
}) {
  return (
    <form action={action}>
      <input type="hidden" name={name} value={value} />
      <button
        type="submit"
        aria-label={label}
        className="rounded-md px-2 py-1 text-xs font-medium text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-950"
      >
        Revoke
      </button>
    </form>
  );
}
