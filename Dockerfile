# syntax=docker/dockerfile:1.7
# One Dockerfile for every service (the stages are the same for all; one file cannot drift); SERVICE picks the workspace:
#   docker build --build-arg SERVICE=ledger -t agentic/ledger:dev .
#   docker build --build-arg SERVICE=gateway --build-arg PORT=8080 --build-arg METRICS_PORT=8080 -t agentic/gateway:dev .
# prune: only the workspaces the service depends on (turbo prune) -> build: install exactly the pruned
# lockfile (cached until a dependency changes), compile, drop dev dependencies, write the SBOM ->
# runtime: that tree on a slim Node image, as the non-root `node` user, labelled with its version.
#   docker build --build-arg SERVICE=ledger --build-arg VERSION="$(git describe --always --dirty)" ...

ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS base
ENV NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false \
    TURBO_TELEMETRY_DISABLED=1
# The versions package.json pins (packageManager) and the lockfile resolves.
RUN npm install -g npm@11.19.1 turbo@2.11.11
WORKDIR /app

FROM base AS prune
ARG SERVICE
RUN test -n "${SERVICE}" || { echo "build with --build-arg SERVICE=<gateway|catalog|router|executor|ledger>" >&2; exit 1; }
COPY . .
RUN turbo prune "@agentic/${SERVICE}" --docker

FROM base AS build
ARG SERVICE
# Manifests and the pruned lockfile only: the install layer below is reused until they change.
COPY --from=prune /app/out/json/ ./
# The fixes npm ci applies to dependencies (the root postinstall runs patch-package; see patches/README.md).
COPY --from=prune /app/patches ./patches
# `npm ci`: exactly the versions the lockfile pins, the ones CI tested (a rebuild never resolves
# anew). Install scripts run only where package.json's allowScripts approves them (the `node`
# package, which installs the pinned Node binary). A private registry token, if any, is mounted for
# this step only (never stored in a layer):
#   docker build --secret id=npmrc,src=$HOME/.npmrc ...
RUN --mount=type=cache,target=/root/.npm \
    --mount=type=secret,id=npmrc,target=/root/.npmrc \
    npm ci --no-audit --no-fund
COPY --from=prune /app/out/full/ ./
# turbo prune copies the workspaces but not the root tsconfig they extend.
COPY tsconfig.base.json ./
RUN npx turbo run build --filter="@agentic/${SERVICE}..."
# The SBOM of what the image ships (CycloneDX, production dependencies; npm sbom reads the full tree,
# so before the prune); then production dependencies only (no typescript, jest, turbo, buf); then a
# fixed path to the service so CMD does not depend on SERVICE (gateway/ sits at the root, the others
# under services/).
RUN npm sbom --sbom-format cyclonedx --omit dev --workspace "@agentic/${SERVICE}" > sbom.cdx.json \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf .turbo node_modules/.cache \
 && case "${SERVICE}" in gateway) dir=gateway ;; *) dir="services/${SERVICE}" ;; esac \
 && test -f "${dir}/dist/main.js" \
 && ln -s "${dir}" service

FROM ${NODE_IMAGE} AS runtime
ARG SERVICE
ARG PORT=50051
ARG METRICS_PORT=9464
# The version traces (service.version) and metrics (agentic_build_info) report: the image's label.
ARG VERSION=dev
ENV NODE_ENV=production \
    SERVICE_VERSION=${VERSION}
WORKDIR /app
# Owned by root, so the `node` user can read but not change the code it runs.
COPY --from=build /app ./
USER 1000:1000
EXPOSE ${PORT} ${METRICS_PORT}
LABEL org.opencontainers.image.title="agentic-${SERVICE}" \
      org.opencontainers.image.version="${VERSION}"
# The Kubernetes manifests run the same with the workspace path spelled out
# (services/<svc>/dist/main.js, gateway/dist/main.js); `service` links to it.
CMD ["node", "--require", "@agentic/platform/telemetry", "service/dist/main.js"]
