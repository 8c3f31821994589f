/**
 * Sets the `dark` class before first paint from the saved theme (light/dark/system),
 * so pages never flash the wrong theme. The saved value lives in localStorage and in the
 * `ringside-theme` cookie (set by the settings page).
 */
const SCRIPT = `(() => { try {
  var m = document.cookie.match(/(?:^|; )ringside-theme=(light|dark|system)/);
  var t = (m && m[1]) || localStorage.getItem("ringside-theme") || "system";
  var dark = t === "dark" || (t === "system" && window.matchMedia("(prefers-color-scheme: dark)").matches);
  document.documentElement.classList.toggle("dark", dark);
  document.documentElement.dataset.theme = t;
} catch (e) {} })();`;

export function ThemeScript({ nonce }: { nonce?: string }) {
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: SCRIPT }} />;
}
