# The flags of the praykit binary users install, sourced by Scripts/build-release.sh, startup.sh and
# load-test.sh so that they measure that binary and share one build folder (.build/release):
# release, the Swift runtime linked in, no $ORIGIN RUNPATH, and every module reaching concrete type
# metadata through direct accessors instead of by mangled name (README, "Start-up and memory").
# shellcheck disable=SC2034
release_flags=(-c release --static-swift-stdlib --disable-local-rpath
    -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
