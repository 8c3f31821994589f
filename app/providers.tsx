"use client";
// React Query's provider. It wraps the pages whose views fetch in the browser (each page.tsx
// that renders a *-client.tsx with hooks), not the root layout: a page drawn on the server
// (Today, the sign-in pages) then ships no query client (about 12 kB gzip). In the browser all
// of them share one QueryClient (getQueryClient), so the cache lives across navigations as before.

import { isServer, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => {
          const status = (error as { status?: number }).status ?? 0;
          if (status >= 400 && status < 500) return false;
          return failureCount < 2;
        },
      },
    },
  });
}

let browserQueryClient: QueryClient | undefined;

/** One QueryClient per request on the server, one per tab in the browser. */
export function getQueryClient() {
  if (isServer) return makeQueryClient();
  browserQueryClient ??= makeQueryClient();
  return browserQueryClient;
}

/** Wraps a page that uses the hooks of components/hooks. */
export function Providers({ children }: { children: ReactNode }) {
  const queryClient = getQueryClient();
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
