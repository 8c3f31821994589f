#!/usr/bin/env node
// Before `npm install`, `npm run demo` and `npm start`: one clear line when this Node.js is too
// old for Ringside (Node.js 24 LTS; 22.12 at least), instead of a failing install or a stack
// trace later. Written to run on any old Node.js: no syntax newer than ES2015 modules.
const parts = process.versions.node.split(".").map(Number);
const major = parts[0];
const minor = parts[1];
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(
    `Ringside needs Node.js 24 LTS (22.12 at least); this is Node.js ${process.versions.node}. ` +
      "Install Node.js 24 (https://nodejs.org, your package manager, or nvm install 24) and run this again.\n",
  );
  process.exit(1);
}
