# Ringside container image: a thin wrapper around the production path (`npm run build`,
# then `node lib/server/start.mjs`), which the test suite exercises. Build it yourself:
#   docker build -t ringside .        (multi-arch: docker buildx build --platform linux/amd64,linux/arm64 -t ringside .)
# Node.js 24 LTS on Debian bookworm. better-sqlite3 13 ships Node-API prebuilds (x64 and arm64,
# glibc and musl) in its package, so nothing is compiled.
# One image for SQLite and PostgreSQL: DATABASE_URL decides at start (compose.example.yaml,
# compose.postgres.example.yaml).

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY prisma ./prisma
COPY prisma.config.ts ./
COPY lib/server/check-node.mjs ./lib/server/check-node.mjs
RUN npm install --no-audit --no-fund
COPY . .
ENV NEXT_TELEMETRY_DISABLED=1 SKIP_ENV_VALIDATION=1
RUN npm run build
# What lib/server/start.mjs imports from outside the standalone output: better-sqlite3 for the
# SQLite migrator and backups, zod for lib/env.mjs, pg (and what it needs) for
# the PostgreSQL migrator.
RUN mkdir -p /runtime-modules && cd node_modules && cp -R better-sqlite3 zod \
    pg pg-connection-string pg-int8 pg-pool pg-protocol pg-types pgpass postgres-array postgres-bytea \
    postgres-date postgres-interval split2 xtend /runtime-modules/

FROM node:24-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 DATA_DIR=/data PORT=3000 HOST=0.0.0.0
# Only what `lib/server/start.mjs` needs: the standalone server (with its traced
# node_modules), the migrations of both databases, and the few plain-JS start-up modules.
COPY --from=build /app/.next/standalone ./.next/standalone
COPY --from=build /app/.next/static ./.next/standalone/.next/static
COPY --from=build /app/public ./.next/standalone/public
COPY --from=build /app/prisma/migrations ./prisma/migrations
COPY --from=build /app/prisma/postgresql/migrations ./prisma/postgresql/migrations
COPY --from=build /app/lib/server ./lib/server
COPY --from=build /app/lib/db/sqlite.mjs /app/lib/db/migrate.mjs /app/lib/db/migrate-postgres.mjs /app/lib/db/backup.mjs /app/lib/db/backup-cli.mjs ./lib/db/
COPY --from=build /app/lib/env.mjs /app/lib/load-dotenv.mjs ./lib/
COPY --from=build /app/lib/auth/issuer.mjs ./lib/auth/issuer.mjs
COPY --from=build /app/package.json ./package.json
COPY --from=build /runtime-modules ./node_modules
RUN groupadd --system ringside && useradd --system --gid ringside --home /data ringside \
  && mkdir -p /data && chown ringside:ringside /data
USER ringside
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "lib/server/start.mjs"]
