# Hearth's container image: panel + local node (`hearth start`), data in the /var/lib/hearth volume.
# docs/operations.md § Container explains the choices (root, Docker socket, ports) and how CI builds it.
#   docker build -t hearth .
#   docker run -d -p 8080:8080 -p 5657:5657 -v hearth-data:/var/lib/hearth hearth
ARG BASE_IMAGE=node:20-bookworm-slim

FROM ${BASE_IMAGE} AS build
WORKDIR /src
# CI only: the name of a folder in the build context holding a tree built outside (`npm run build`, its
# production node_modules and the holder binary, made on a bookworm host with the same Node). Empty: build here.
ARG HEARTH_PREBUILT=
# The official images have Node under /usr/local; native modules build against its headers.
ENV npm_config_nodedir=/usr/local
# Compilers for the native modules (better-sqlite3, node-pty, ssh2) and the server holder.
RUN if [ -z "$HEARTH_PREBUILT" ]; then \
      apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
      && rm -rf /var/lib/apt/lists/*; \
    fi
# Package files first: `npm ci` stays a cached layer until a dependency changes.
COPY package.json package-lock.json .npmrc ./
COPY packages/contract/package.json packages/contract/
COPY packages/server-kit/package.json packages/server-kit/
COPY apps/cli/package.json apps/cli/
COPY apps/daemon/package.json apps/daemon/
COPY apps/panel/package.json apps/panel/
COPY apps/web/package.json apps/web/
RUN if [ -z "$HEARTH_PREBUILT" ]; then npm ci --no-audit --no-fund; fi
COPY . .
RUN set -e; \
    if [ -n "$HEARTH_PREBUILT" ]; then mv "$HEARTH_PREBUILT" /opt/hearth; exit 0; fi; \
    npm run build; \
    cd dist/hearth; \
    npm install --omit=dev --no-audit --no-fund; \
    holder="share/holder/hearth-holder-$(sha256sum share/holder/hearth-holder.c | cut -c1-16)"; \
    cc -std=c11 -O2 -Wall -o "$holder" share/holder/hearth-holder.c; \
    mv /src/dist/hearth /opt/hearth

FROM ${BASE_IMAGE}
# bubblewrap: the game servers' sandbox; restic: backups (docs/backups.md). The CI base already has both.
RUN if ! command -v bwrap >/dev/null || ! command -v restic >/dev/null; then \
      apt-get update && apt-get install -y --no-install-recommends bubblewrap restic ca-certificates \
      && rm -rf /var/lib/apt/lists/*; \
    fi \
    && (getent passwd hearth >/dev/null || useradd --system --home-dir /var/lib/hearth --shell /usr/sbin/nologin hearth) \
    && mkdir -p /var/lib/hearth && chown hearth:hearth /var/lib/hearth
COPY --from=build /opt/hearth /opt/hearth
RUN ln -s /opt/hearth/bin/hearth.js /usr/local/bin/hearth
# Everything the panel and the local node write lives in the volume; the config file is created there on first
# start. Listen on all interfaces inside the container: publishing a port is the operator's choice.
ENV NODE_ENV=production \
    HEARTH_CONFIG=/var/lib/hearth/config.json \
    HEARTH_PANEL_DATA_DIR=/var/lib/hearth \
    HEARTH_PANEL_DATABASE_URL=sqlite:/var/lib/hearth/hearth.db \
    HEARTH_WEB_HOST=0.0.0.0 \
    HEARTH_NODE_SFTP_HOST=0.0.0.0
VOLUME /var/lib/hearth
WORKDIR /var/lib/hearth
# Panel (HTTP) and the local node's SFTP. The node's own HTTP port (5656) stays on loopback inside.
EXPOSE 8080 5657
# Root: the local node starts each game server under a uid of its own (docs/security.md § Isolation model).
# A panel-only container can drop it: `docker run --user hearth … hearth start --no-node`.
USER root
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.HEARTH_WEB_PORT||8080)+'/').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["hearth"]
CMD ["start"]
