#!/usr/bin/env bash
# Builds the base of Ratchet's container image without a registry nor a Docker daemon: one layer
# holding a Java runtime made by jlink from the build's JDK, the shared libraries it loads (copied
# from this Debian machine's packages, with their copyright files), /etc/passwd and /etc/group with
# the non-root user ratchet (10001), CA certificates, /tmp and the data directory /data owned by
# ratchet. Writes it as an image tarball in `docker save` format, which Jib takes as its base
# (from.image tar://...). docs/DEPLOY.md describes the image.
#
# usage: build-base.sh <JAVA_HOME of the build> <output directory>
set -euo pipefail

java_home=${1:?JAVA_HOME of the build}
out=${2:?output directory}
uid=10001

# The modules `jdeps --print-module-deps --multi-release 17 --ignore-missing-deps` lists for the
# classes of ratchet.jar, and those loaded as services that jdeps cannot see: jdk.crypto.ec (TLS
# with elliptic curves: OTLP, model APIs, Redis over TLS), jdk.naming.dns, jdk.net (Netty's and
# Hazelcast's socket options), jdk.zipfs.
modules=java.base,java.compiler,java.desktop,java.naming,java.net.http,java.scripting,java.sql,java.xml
modules=$modules,jdk.httpserver,jdk.jfr,jdk.management,jdk.unsupported,jdk.crypto.ec,jdk.naming.dns,jdk.net,jdk.zipfs

[[ -d $java_home/jmods ]] || { echo "build-base.sh: $java_home has no jmods (Debian: install openjdk-17-jdk-headless's jmods, openjdk-17-jmods)" >&2; exit 1; }
command -v dpkg >/dev/null || { echo "build-base.sh: needs a Debian machine (dpkg) to find the libraries' packages and licences" >&2; exit 1; }

root=$out/rootfs
rm -rf "$out"
mkdir -p "$root"

"$java_home/bin/jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files \
  --compress=2 --output "$root/opt/java"
# java.desktop is there for java.beans; its display, font and sound libraries would need X11,
# FreeType and ALSA, which a headless server never loads
rm -f "$root"/opt/java/lib/{libawt_xawt,libjawt,libsplashscreen,libfontmanager,libjsound,libjavajpeg,liblcms}.so

libdir=$root/usr/lib/x86_64-linux-gnu
mkdir -p "$libdir" "$root/usr/lib64" "$root/usr/share/doc"
ln -s usr/lib "$root/lib"
ln -s usr/lib64 "$root/lib64"
ln -s ../lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 "$root/usr/lib64/ld-linux-x86-64.so.2"

declare -A packages=()
package_of() {
  local path=$1 pkg
  pkg=$(dpkg -S "$path" 2>/dev/null || dpkg -S "$(readlink -f "$path")" 2>/dev/null \
    || dpkg -S "/usr${path}" 2>/dev/null || true)
  [[ -n $pkg ]] || { echo "build-base.sh: no Debian package owns $path" >&2; exit 1; }
  packages[${pkg%%:*}]=1
}

# every library that the runtime's executables and libraries need, and what those need in turn
mapfile -t needed < <(find "$root/opt/java" -type f \( -name '*.so' -o -path '*/bin/*' -o -name jspawnhelper \) \
  -exec ldd {} \; 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\/.*ld-linux/ {print $1}' \
  | grep -v "^$root/" | sort -u)
# the native transport Netty unpacks from ratchet.jar needs libdl and librt besides libc; the
# redis-server that run unpacks from the embedded-redis artifact when no redis.url is set needs
# OpenSSL's libssl and libcrypto
for extra in libdl.so.2 librt.so.1 libpthread.so.0 libssl.so.3 libcrypto.so.3; do
  needed+=("/lib/x86_64-linux-gnu/$extra")
done
for lib in "${needed[@]}"; do
  cp -L "$lib" "$libdir/$(basename "$lib")"
  package_of "$lib"
done
package_of "$java_home/lib/server/libjvm.so"

mkdir -p "$root/etc/ssl/certs"
cp -L /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
packages[ca-certificates]=1
for pkg in "${!packages[@]}"; do
  mkdir -p "$root/usr/share/doc/$pkg"
  cp -L "/usr/share/doc/$pkg/copyright" "$root/usr/share/doc/$pkg/copyright"
done
{
  echo "Debian packages whose files are in this image (licences in /usr/share/doc/<package>/copyright):"
  for pkg in $(printf '%s\n' "${!packages[@]}" | sort); do
    dpkg-query -W -f='${Package} ${Version}\n' "$pkg"
  done
} > "$root/usr/share/doc/PACKAGES"

cat > "$root/etc/passwd" <<EOF
root:x:0:0:root:/root:/sbin/nologin
ratchet:x:$uid:$uid:Ratchet:/data:/sbin/nologin
EOF
cat > "$root/etc/group" <<EOF
root:x:0:
ratchet:x:$uid:
EOF
printf 'passwd: files\ngroup: files\nhosts: files dns\n' > "$root/etc/nsswitch.conf"
mkdir -p "$root/tmp" "$root/data"
chmod 1777 "$root/tmp"
chmod 0750 "$root/data"

# one layer, owned by root but for /data, with fixed times so that the same inputs give the same digest
layer=$out/layer.tar
tar --create --file "$layer" --directory "$root" --sort=name --numeric-owner --owner=0 --group=0 \
  --mtime='1970-01-01 00:00:01Z' --exclude=./data .
tar --append --file "$layer" --directory "$root" --numeric-owner --owner=$uid --group=$uid \
  --mtime='1970-01-01 00:00:01Z' ./data
diff_id=sha256:$(sha256sum "$layer" | cut -d' ' -f1)

image=$out/image
mkdir -p "$image"
mv "$layer" "$image/layer.tar"
cat > "$image/config.json" <<EOF
{"architecture":"amd64","os":"linux","created":"1970-01-01T00:00:01Z","config":{"Env":["PATH=/opt/java/bin:/usr/bin:/bin","JAVA_HOME=/opt/java"]},"rootfs":{"type":"layers","diff_ids":["$diff_id"]},"history":[{"created":"1970-01-01T00:00:01Z","created_by":"server/src/image/build-base.sh: jlinked Java runtime $("$java_home/bin/java" -XshowSettings:properties -version 2>&1 | awk -F' = ' '/java.runtime.version/{print $2}'), its Debian libraries, user ratchet ($uid)"}]}
EOF
config_id=$(sha256sum "$image/config.json" | cut -d' ' -f1)
mv "$image/config.json" "$image/$config_id.json"
printf '[{"Config":"%s.json","RepoTags":["ratchet-base:local"],"Layers":["layer.tar"]}]\n' "$config_id" > "$image/manifest.json"
# entries named without ./, as Jib reads them
tar --create --file "$out/base.tar" --directory "$image" --mtime='1970-01-01 00:00:01Z' \
  manifest.json "$config_id.json" layer.tar
rm -rf "$image"
echo "build-base.sh: $out/base.tar ($(du -h "$out/base.tar" | cut -f1)), Java modules $modules, packages: $(printf '%s ' $(printf '%s\n' "${!packages[@]}" | sort))"
