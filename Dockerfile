# syntax=docker/dockerfile:1
#
# svc's local sandbox as an image, built from this repository: the sources are built and packed
# (npm pack, dependencies bundled in the tarball) and svc is installed from that tarball, never
# from a registry version. See docs/install.md.
#
#   docker build -t svc-sandbox .
#   docker run --rm -p 8787:8787 -e SVC_SANDBOX_ADMIN_TOKEN=change-me-ci-token-0123 svc-sandbox
#   docker run --rm -p 8787:8787 svc-sandbox --seed 42 --rate-limit 0      # flags after the image name
#
# The command is fixed (ENTRYPOINT), as CI service containers cannot override it; settings come
# from flags appended by `docker run` or from the environment (SVC_SANDBOX_ADMIN_TOKEN).

# --- build: compile and pack from the sources --------------------------------------------------
FROM node:20-bookworm AS build
WORKDIR /src
# Dependencies first: this layer is reused while package.json and package-lock.json do not change.
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
# Build dist/ and oclif.manifest.json, pack them with the bundled dependencies, then install the
# tarball as a user would. The optional better-sqlite3 (for `serve --data`) is fetched here and
# built for this platform (a prebuilt binary, or compiled: python3, make and g++ are in this image).
RUN npm run build \
 && npm pack --ignore-scripts \
 && npm install -g ./svc-momo-cli-*.tgz --prefix /opt/svc --no-audit --no-fund \
 && /opt/svc/bin/svc --version

# --- run: Node and the installed package, nothing else ------------------------------------------
FROM node:20-bookworm-slim
COPY --from=build /opt/svc /opt/svc
ENV PATH=/opt/svc/bin:$PATH
# For `--data /data/sandbox.db` on a mounted volume.
RUN mkdir /data && chown node:node /data
USER node
WORKDIR /home/node
EXPOSE 8787
HEALTHCHECK --interval=2s --timeout=2s --start-period=5s --retries=15 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8787/v1/openapi.json').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# svc stops cleanly on SIGTERM (docker stop) and on SIGINT.
ENTRYPOINT ["svc", "sandbox", "serve", "--host", "0.0.0.0", "--port", "8787"]
