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
#
# FoundationInternationalization (and with it ICU's data) is linked in, although no module imports it:
# the modules use FoundationEssentials only (docs/performance.md, "Zones, Foundation and ICU"), and a
# named Foundation `TimeZone` — which an app-facing API or a zone missing from the system's tz
# database still makes — finds ICU's zone class by name at run time. `-u` makes the linker take that
# class from the archive (the default build loads the shared library on demand instead).
# shellcheck disable=SC2034
release_flags=(-c release --static-swift-stdlib --disable-local-rpath
    -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
    -Xswiftc -use-ld=lld
    -Xswiftc -Xfrontend -Xswiftc -public-autolink-library -Xswiftc -Xfrontend -Xswiftc :libstdc++.a
    -Xswiftc -Xfrontend -Xswiftc -public-autolink-library -Xswiftc -Xfrontend -Xswiftc FoundationInternationalization
    -Xswiftc -Xfrontend -Xswiftc -public-autolink-library -Xswiftc -Xfrontend -Xswiftc _FoundationICU
    -Xlinker -u -Xlinker '$s30FoundationInternationalization12_TimeZoneICUCMa')
# Relative relocations packed (DT_RELR): 1.9 MB of .rela.dyn becomes 16 KB, which the loader no longer
# reads at every start. Only where the C library understands them (glibc 2.36, Debian 12), since the
# binary runs where it was built.
glibc_version="$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{ print $2 }')"
if [ -n "$glibc_version" ] && printf '%s\n' 2.36 "$glibc_version" | sort -V -C; then
    release_flags+=(-Xlinker -z -Xlinker pack-relative-relocs)
fi
