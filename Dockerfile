# luainterp as a static binary on a distroless base, running as non-root.
#   make image            (docker build with the version of `git describe`)
#   docker build --build-arg VERSION=v1.2.3 --build-arg COMMIT=$(git rev-parse HEAD) -t luainterp:v1.2.3 .
# deploy/dockerfile_test.go runs this file's go build command and checks
# that the binary it makes is static.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=unknown
ARG COMMIT=unknown
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION} -X main.commit=${COMMIT}" -o /out/luainterp ./cmd/luainterp

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/luainterp /luainterp
USER nonroot:nonroot
ENTRYPOINT ["/luainterp"]
