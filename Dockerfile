# JupyterLab + GoNB + dpbandits, notebooks ready to run:
#
#   docker build -t dpbandits .
#   docker run --rm -p 8888:8888 dpbandits          # then open the printed URL
#   docker run --rm dpbandits .ci/notebooks          # execute and check every notebook headless
#   docker run --rm -v ~/.local/share/dpbandits:/data -e DPB_DATA=/data dpbandits .ci/notebooks
#                                                    # … with the replay data "dpb data fetch" got on the host
#                                                    # (without it mt14_fig2 shows its declared skip)
#
# JupyterLab is not packaged in Debian bookworm, so the base is the official
# Python image (bookworm) with JupyterLab from PyPI; Go is copied from the
# official Go image; GoNB and goimports are built from the pins in
# .ci/tools/go.mod (the same versions CI uses); echarts.min.js for the offline
# interactive charts comes from the npm package echarts@5.4.3.
#
# Not built in the project's CI (its machines have no Docker engine).

FROM golang:1.26-bookworm AS go

FROM node:20-bookworm-slim AS echarts
WORKDIR /tmp/echarts
RUN npm pack --silent echarts@5.4.3 && tar -xzf echarts-5.4.3.tgz package/dist/echarts.min.js package/LICENSE \
 && echo "1156429a16a38cb8604dcc6518c19406d4226142d908f8edd2e3531443c54d19  package/dist/echarts.min.js" | sha256sum -c

FROM python:3.12-bookworm
RUN pip install --no-cache-dir "jupyterlab==4.2.*" "nbconvert==7.*" "nbclient==0.10.*"
COPY --from=go /usr/local/go /usr/local/go
# auto: a build inside this checkout (which keeps its .git, see .dockerignore)
# records the commit; GoNB's builds outside it record none, without error.
ENV GOPATH=/root/go PATH=/usr/local/go/bin:/root/go/bin:$PATH GOFLAGS=-buildvcs=auto

WORKDIR /dpbandits
# Tools first, so that editing the project does not rebuild them.
COPY .ci/tools .ci/tools
# GoNB v0.11.4's "gonb -V" prints v0.11.1 (a stale tag in that release): the
# build checks the version the binary was built from.
RUN cd .ci/tools && go install tool && go install golang.org/x/tools/gopls@v0.23.0 \
 && go version -m "$(command -v gonb)" | grep -Eq 'github.com/janpfeifer/gonb[[:space:]]+v0.11.4' \
 && gonb --install --raw_error
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# dpb on the PATH, stamped with the commit ("docker run --rm dpbandits dpb
# version"). The image fails to build rather than hold an unstamped binary
# (a context without .git, or a git worktree's, whose .git file go ignores).
RUN go build -buildvcs=true -o /usr/local/bin/dpb ./dpb/cmd/dpb && dpb version \
 && go version -m /usr/local/bin/dpb | grep -q vcs.revision=
COPY --from=echarts /tmp/echarts/package/dist/echarts.min.js /tmp/echarts/package/LICENSE notebooks/third_party/echarts/
RUN go build ./... && go vet -tags notebooks ./dpb/plot

EXPOSE 8888
CMD ["jupyter", "lab", "--ip=0.0.0.0", "--port=8888", "--no-browser", "--allow-root", \
     "--ServerApp.root_dir=/dpbandits", "--LabApp.default_url=/lab/tree/notebooks/00_start_here.ipynb"]
