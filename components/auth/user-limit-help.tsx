import { cn } from "@/components/ui/cn";

/** The ring service's 10-person cap for unapproved apps, explained for someone hosting Ringside. */
export function UserLimitHelp({ headingLevel = 2 }: { headingLevel?: 2 | 3 }) {
  const H = headingLevel === 2 ? "h2" : "h3";
  return (
    <section
      data-testid="user-limit-help"
      className={cn(
        "space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950",
        "dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-100",
      )}
    >
      <H className="font-semibold">About the 10-person limit</H>
      <p>
        Ringside reads your data through an app that you (the person hosting this Ringside) registered with the ring service. Until the ring service approves
        that app, at most <strong>10 different ring accounts</strong> can connect to it. That is plenty for a household, but the service refuses the 11th
        person.
      </p>
      <p className="font-medium">What you can do:</p>
      <ul className="list-disc space-y-1 pl-5">
        <li>Keep to 10 people: every ring account that has ever granted access to your app may count, even after disconnecting.</li>
        <li>Ask the ring service to approve your app in its developer portal (your application&apos;s page). Approved apps have no user limit.</li>
        <li>Or have a second household register its own app and run its own Ringside: each registration gets its own 10.</li>
      </ul>
    </section>
  );
}
