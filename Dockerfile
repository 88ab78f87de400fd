# One image for the three services (api, sync, projector); the command picks the service.
FROM node:20-bookworm-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY domain/package.json domain/
COPY read-models/package.json read-models/
COPY infra/package.json infra/
COPY services/api/package.json services/api/
COPY services/sync/package.json services/sync/
COPY services/projector/package.json services/projector/
COPY services/standalone/package.json services/standalone/
COPY frontend/package.json frontend/
COPY tools/package.json tools/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx tsc -b && npm run -w frontend build && npm prune --omit=dev

FROM node:20-bookworm-slim
# Chromium renders the PDF reports (Debian's package; no browser download).
RUN apt-get update && apt-get install -y --no-install-recommends chromium fonts-dejavu-core && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build --chown=node:node /app /app
ENV NODE_ENV=production DATA_DIR=/data CHROMIUM_PATH=/usr/bin/chromium
# A bounded heap makes V8 collect early instead of growing lazily: a sync stays well under 400 MB.
ENV NODE_OPTIONS=--max-old-space-size=512
# Two malloc arenas, not eight per core: each allocating thread (parser, index writer) kept its own.
ENV MALLOC_ARENA_MAX=2
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8080
CMD ["node", "services/api/dist/main.js"]
