// @ts-check
// Where the production build lives, relative to the project root: `.next`, or the folder
// RINGSIDE_BUILD_DIR names (the test suite builds once into e2e/.build). Read by next.config.mjs,
// `npm start`, `npm run demo` and the test harness, so all of them agree.
import path from "node:path";

/** The build folder, relative to the root (no leading ./, no trailing /). */
export function buildDir(env = process.env) {
  const dir = (env.RINGSIDE_BUILD_DIR ?? "").trim() || ".next";
  const normal = path.posix
    .normalize(dir.replace(/\\/g, "/"))
    .replace(/^\.\/+/, "")
    .replace(/\/+$/, "");
  if (path.posix.isAbsolute(normal) || normal.startsWith("..") || normal === "" || normal === ".") {
    throw new Error(`RINGSIDE_BUILD_DIR must be a folder inside the project, such as .next or e2e/.build (got "${dir}")`);
  }
  return normal;
}

/**
 * The standalone server's folder of a build, absolute.
 * @param {string} root
 */
export function standaloneDir(root, env = process.env) {
  return path.join(root, buildDir(env), "standalone");
}
