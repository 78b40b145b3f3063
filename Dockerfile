# Production image: builds the client, keeps only runtime dependencies, runs as an unprivileged user.
FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 is a native add-on: build tools for the (rare) case with no prebuilt binary.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PORT=3000 DATA_DIR=/app/data
COPY --from=build --chown=node:node /app /app
USER node
EXPOSE 3000
# SIGTERM drains: requests and payments in flight finish (up to SHUTDOWN_GRACE_MS), then exit 0.
# Give `docker stop` a longer timeout than that (docker-compose.yml: stop_grace_period).
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s CMD node -e "fetch('http://127.0.0.1:3000/api/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# node itself with the tsx loader: no wrapper process relaying the stop signal a second time.
CMD ["node", "--import", "tsx", "server/main.ts"]
