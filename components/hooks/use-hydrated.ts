"use client";
import { useSyncExternalStore } from "react";

const noSubscription = () => () => undefined;

/**
 * A value only the browser knows (its zone, its today), read once the page has hydrated;
 * `serverValue` in the server's render and in hydration's first pass, so both agree.
 */
export function useClientValue<T>(read: () => T, serverValue: T): T {
  return useSyncExternalStore(noSubscription, read, () => serverValue);
}

/**
 * True once the page has hydrated. A form whose submit is handled in the browser keeps its
 * button disabled until then: before, the browser would submit the form itself (a GET with its
 * fields in the address, the outcome lost in a reload), which a click on a slow device does.
 */
export const useHydrated = (): boolean => useClientValue(() => true, false);
