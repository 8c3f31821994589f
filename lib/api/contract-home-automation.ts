// Settings → Home automation's part of the contract (beside lib/api/contract.ts): the settings as
// the section shows them and its server action's state. Types only, so the browser may import it.
import type { HomeAssistantSettings } from "@/lib/services/home-assistant";

export type { HomeAssistantSettings };

/** "Publish to Home Assistant" saved: the settings now in force, or the refusal; `at` tells one outcome from the next. */
export type HomeAssistantSaveState = { settings?: HomeAssistantSettings; error?: { code: string; message: string }; at?: number };
