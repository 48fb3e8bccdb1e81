# The flags of the praykit binary users install, sourced by Scripts/build-release.sh, startup.sh and
# load-test.sh so that they measure that binary and share one build folder (.build/release):
# release, the Swift runtime linked in, no $ORIGIN RUNPATH, and every module reaching concrete type
# metadata through direct accessors instead of by mangled name (docs/performance.md, "Start-up and memory").
#
# libstdc++ is linked in too (the Swift runtime is C++): otherwise the dynamic loader looks up ~770 of
# its symbols by name at every start, 0.3–0.5 ms. The toolchain's static-stdlib arguments name the
# shared libstdc++ themselves and come last on the link line, so the archive is named earlier, as an
# autolink entry of every object (`-l:libstdc++.a`), and linked with lld, which resolves a later
# reference from an archive named before it (gold and bfd would not). The shared library stays in
# NEEDED (the toolchain's `-lstdc++`) but no symbol binds to it: Scripts/build-release.sh removes it
# with patchelf.
# shellcheck disable=SC2034
release_flags=(-c release --static-swift-stdlib --disable-local-rpath
    -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
    -Xswiftc -use-ld=lld
    -Xswiftc -Xfrontend -Xswiftc -public-autolink-library -Xswiftc -Xfrontend -Xswiftc :libstdc++.a)
# Relative relocations packed (DT_RELR): 1.9 MB of .rela.dyn becomes 16 KB, which the loader no longer
# reads at every start. Only where the C library understands them (glibc 2.36, Debian 12), since the
# binary runs where it was built.
glibc_version="$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{ print $2 }')"
if [ -n "$glibc_version" ] && printf '%s\n' 2.36 "$glibc_version" | sort -V -C; then
    release_flags+=(-Xlinker -z -Xlinker pack-relative-relocs)
fi
