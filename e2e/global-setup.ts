import { E2E_CLIENT, E2E_EMULATOR_URL } from "./support/ports";

/** Registers the e2e OAuth client at the emulator (the web servers are up by now). */
export default async function globalSetup() {
  const res = await fetch(`${E2E_EMULATOR_URL}/_emulator/clients`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(E2E_CLIENT),
  });
  if (!res.ok && res.status !== 409) throw new Error(`could not register the e2e client: ${res.status}`);
}
