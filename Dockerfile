# Cuarenta on Discord, as a container: `docs/self-hosting.md` says how to build, run and upgrade it.
#
#   docker build -t cuarenta .
#   docker run -d --name cuarenta --restart unless-stopped --env-file .env -e DATABASE_PATH=/data/cuarenta.db \
#       -e METRICS_HOST=0.0.0.0 -e METRICS_PORT=9108 -v cuarenta-data:/data cuarenta
#   (the -e flags win over a .env copied from .env.example, whose DATABASE_PATH and METRICS_PORT differ)
#
# Two stages: the first builds the bot and its dependencies into a virtual environment (/opt/venv), the
# second copies only that environment onto a clean base and runs it as an unprivileged user. The SQLite
# database lives in the volume /data (DATABASE_PATH); with DATABASE_URL set, PostgreSQL is used instead.
# The HEALTHCHECK asks the bot's /healthz (METRICS_PORT): 200 only while the gateway is connected and the
# database answers.
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PYTHONDONTWRITEBYTECODE=1
RUN python -m venv /opt/venv && /opt/venv/bin/pip install --quiet --upgrade pip
# Dependencies first (a layer that changes only with pyproject.toml), then the bot itself.
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
    && /opt/venv/bin/pip install --quiet -r /tmp/requirements.txt
COPY bot ./bot
COPY cogs ./cogs
# A regular (not editable) install: the package, its SQL migrations and its compiled catalogs go into the venv.
RUN /opt/venv/bin/pip install --quiet --no-deps . \
    && /opt/venv/bin/python -c "import bot.app, cogs; print('bot installed')"

FROM ${PYTHON_IMAGE}
LABEL org.opencontainers.image.title="Cuarenta on Discord" \
      org.opencontainers.image.licenses="MIT"
RUN useradd --uid 10001 --user-group --home-dir /app --shell /usr/sbin/nologin cuarenta \
    && mkdir -p /app /data \
    && chown cuarenta:cuarenta /data
COPY --from=build /opt/venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    NO_COLOR=1 \
    DATABASE_PATH=/data/cuarenta.db \
    METRICS_HOST=0.0.0.0 \
    METRICS_PORT=9108
WORKDIR /app
VOLUME ["/data"]
EXPOSE 9108
USER cuarenta
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, sys, urllib.request\ntry:\n    r = urllib.request.urlopen('http://127.0.0.1:%s/healthz' % (os.environ.get('METRICS_PORT') or '9108'), timeout=4)\nexcept Exception as e:\n    sys.exit('unhealthy: %s' % e)\nsys.exit(0 if r.status == 200 else 1)"]
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
