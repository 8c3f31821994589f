"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/components/hooks/api-fetch";
import { queryKeys, type Preferences } from "@/lib/api/contract";

/** Units and theme of the signed-in person. */
export function usePreferences() {
  return useQuery({
    queryKey: queryKeys.preferences,
    queryFn: () => apiFetch<Preferences>("/api/me/preferences"),
    staleTime: 10 * 60_000,
  });
}

/** The units to show values in (metric until the preferences have loaded). */
export function useUnits(): Preferences["units"] {
  return usePreferences().data?.units ?? "metric";
}

/** Applies a theme to the page at once (same rule as components/ui/theme-script.tsx). */
export function applyTheme(theme: Preferences["theme"]) {
  try {
    localStorage.setItem("ringside-theme", theme);
  } catch {
    // private mode: the cookie set by the server still carries it
  }
  document.cookie = `ringside-theme=${theme}; Path=/; Max-Age=31536000; SameSite=Lax`;
  const dark = theme === "dark" || (theme === "system" && window.matchMedia("(prefers-color-scheme: dark)").matches);
  document.documentElement.classList.toggle("dark", dark);
  document.documentElement.dataset.theme = theme;
}

export function useUpdatePreferences() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (patch: Partial<Preferences>) => apiFetch<Preferences>("/api/me/preferences", { method: "PATCH", json: patch }),
    onMutate: (patch) => {
      if (patch.theme) applyTheme(patch.theme);
      const prev = qc.getQueryData<Preferences>(queryKeys.preferences);
      if (prev) qc.setQueryData(queryKeys.preferences, { ...prev, ...patch });
      return { prev };
    },
    onError: (_e, _p, ctx) => {
      if (ctx?.prev) {
        qc.setQueryData(queryKeys.preferences, ctx.prev);
        applyTheme(ctx.prev.theme);
      }
    },
    onSuccess: (data) => qc.setQueryData(queryKeys.preferences, data),
  });
}
