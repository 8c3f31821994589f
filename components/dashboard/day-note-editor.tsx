"use client";
import { useId, useState, type KeyboardEvent } from "react";
import { formatDay } from "@/lib/days";
import type { DayNote } from "@/lib/api/contract";
import { useHydrated } from "@/components/hooks/use-hydrated";
import { useSaveDayNote } from "@/components/hooks/use-notes";
import { useTags } from "@/components/hooks/use-tags";
import { Button, inputClass } from "@/components/ui/field";
import { cn } from "@/components/ui/cn";

export const SUGGESTED_TAGS = ["alcohol", "travel", "sick", "late meal", "caffeine", "workout", "stress"];

const normalise = (s: string) => s.trim().replace(/\s+/g, " ").toLowerCase();

/** Tags and a free-text note for one day, saved together (PUT /api/notes/:day). */
export function DayNoteEditor({ day, note, compact }: { day: string; note: DayNote | undefined; compact?: boolean }) {
  const [tags, setTags] = useState<string[]>(note?.tags.map((t) => t.name) ?? []);
  const [text, setText] = useState(note?.text ?? "");
  const [draft, setDraft] = useState("");
  const [saved, setSaved] = useState(false);
  const hydrated = useHydrated();
  const all = useTags();
  const save = useSaveDayNote();
  const listId = useId();
  const textId = useId();
  const tagInputId = useId();

  // fresh data from the server (after a save, or another day) replaces the form's contents;
  // another day also forgets "Saved." (adjusting state while rendering, not in an effect)
  const [shown, setShown] = useState({ day, note });
  if (shown.day !== day || shown.note !== note) {
    setShown({ day, note });
    setTags(note?.tags.map((t) => t.name) ?? []);
    setText(note?.text ?? "");
    if (shown.day !== day) setSaved(false);
  }

  const add = (name: string) => {
    const n = normalise(name);
    if (!n || n.length > 40) return;
    setTags((t) => (t.includes(n) ? t : [...t, n]));
    setDraft("");
    setSaved(false);
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter" || e.key === ",") {
      e.preventDefault();
      add(draft);
    } else if (e.key === "Backspace" && !draft && tags.length) {
      setTags((t) => t.slice(0, -1));
    }
  };
  const known = all.data?.tags.map((t) => t.name) ?? [];
  const suggestions = [...new Set([...known, ...SUGGESTED_TAGS])].filter((t) => !tags.includes(t)).slice(0, 8);
  const dirty = JSON.stringify([...tags].sort()) !== JSON.stringify((note?.tags.map((t) => t.name) ?? []).sort()) || text.trim() !== (note?.text ?? "");

  return (
    <form
      data-testid="day-note-editor"
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        const pending = normalise(draft);
        const finalTags = pending && !tags.includes(pending) ? [...tags, pending] : tags;
        setDraft("");
        setTags(finalTags);
        save.mutate({ day, text, tags: finalTags }, { onSuccess: () => setSaved(true) });
      }}
    >
      <div>
        <label htmlFor={tagInputId} className="text-xs font-medium text-slate-600 dark:text-slate-400">
          Tags for {formatDay(day, { withYear: true })}
        </label>
        <div
          className={cn(
            inputClass,
            "mt-1 flex flex-wrap items-center gap-1.5 py-1",
            "focus-within:border-brand-600 focus-within:outline-2 focus-within:outline-offset-1 focus-within:outline-brand-600",
          )}
        >
          {tags.map((t) => (
            <span
              key={t}
              className={cn(
                "inline-flex items-center gap-1 rounded-full bg-violet-100 py-0.5 pl-2 pr-1 text-xs font-medium text-violet-900",
                "dark:bg-violet-500/20 dark:text-violet-200",
              )}
              data-testid="tag-chip"
            >
              #{t}
              <button
                type="button"
                onClick={() => {
                  setTags((x) => x.filter((y) => y !== t));
                  setSaved(false);
                }}
                aria-label={`Remove tag ${t}`}
                className={cn(
                  "rounded-full px-1 leading-none hover:bg-violet-200 focus-visible:outline-2 focus-visible:outline-violet-600",
                  "dark:hover:bg-violet-500/30",
                )}
              >
                ×
              </button>
            </span>
          ))}
          <input
            id={tagInputId}
            list={listId}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={onKey}
            placeholder={tags.length ? "Add another…" : "alcohol, travel, sick…"}
            className="min-w-[8rem] flex-1 bg-transparent py-0.5 text-sm outline-none"
            maxLength={40}
          />
          <datalist id={listId}>
            {known.map((t) => (
              <option key={t} value={t} />
            ))}
          </datalist>
        </div>
        {suggestions.length ? (
          <div className="mt-1.5 flex flex-wrap gap-1" aria-label="Suggested tags">
            {suggestions.map((s) => (
              <button
                key={s}
                type="button"
                onClick={() => add(s)}
                className={cn(
                  "rounded-full border border-slate-200 px-2 py-0.5 text-xs text-slate-600 hover:border-violet-300 hover:text-violet-800",
                  "focus-visible:outline-2 focus-visible:outline-violet-600 dark:border-slate-700 dark:text-slate-400 dark:hover:text-violet-200",
                )}
              >
                + {s}
              </button>
            ))}
          </div>
        ) : null}
      </div>
      <div>
        <label htmlFor={textId} className="text-xs font-medium text-slate-600 dark:text-slate-400">
          Note
        </label>
        <textarea
          id={textId}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setSaved(false);
          }}
          rows={compact ? 2 : 3}
          maxLength={2000}
          placeholder="Anything worth remembering about this day"
          className={cn(inputClass, "mt-1 w-full resize-y")}
        />
      </div>
      {note?.ringTags.length ? (
        <p className="flex flex-wrap items-center gap-1.5 text-xs text-slate-600 dark:text-slate-400" data-testid="note-ring-tags">
          From the ring app:
          {note.ringTags.map((t) => (
            <span
              key={t.id}
              title="Entered in the ring's app (read-only)"
              className={cn(
                "rounded-full bg-teal-50 px-2 py-0.5 font-medium text-teal-900 ring-1 ring-inset ring-teal-200",
                "dark:bg-teal-950/50 dark:text-teal-100 dark:ring-teal-800",
              )}
            >
              #{t.name}
            </span>
          ))}
        </p>
      ) : null}
      <div className="flex items-center gap-3">
        <Button type="submit" disabled={!hydrated || save.isPending || (!dirty && !draft.trim())}>
          {save.isPending ? "Saving…" : "Save"}
        </Button>
        <span role="status" className="text-xs text-slate-500 dark:text-slate-400">
          {save.isError ? <span className="text-rose-600">{(save.error as Error).message}</span> : saved && !dirty ? "Saved." : ""}
        </span>
      </div>
    </form>
  );
}
