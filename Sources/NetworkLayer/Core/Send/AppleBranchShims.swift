// Built only with `-Xswiftc -D NETWORKLAYER_APPLE_BRANCHES` on Linux (`.ci/run` does), where the Apple
// branches of the platform layer compile against FoundationNetworking: what the compiler found missing,
// and nothing else. Each stands in for an Apple SDK declaration whose annotations (availability,
// deprecation, `Sendable`) only an Apple toolchain checks: the list in <doc:LinuxNotes>. Never run as
// Apple's: these values are what makes the build type-check, not what an Apple system does.
#if NETWORKLAYER_APPLE_BRANCHES && canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking

    extension URLSessionConfiguration {
        /// FoundationNetworking declares it read-only and always `false`.
        var waitsForConnectivity: Bool {
            get { false }
            set {}
        }
    }

    /// FoundationNetworking declares both unavailable: libcurl checks certificates itself.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    let NSURLAuthenticationMethodServerTrust = "NSURLAuthenticationMethodServerTrust"
    // swift-format-ignore: AlwaysUseLowerCamelCase
    let NSURLAuthenticationMethodClientCertificate = "NSURLAuthenticationMethodClientCertificate"

    /// Glibc has no `F_FULLFSYNC`; Darwin's value, which Linux's `fcntl` refuses (`EINVAL`).
    // swift-format-ignore: AlwaysUseLowerCamelCase
    let F_FULLFSYNC: Int32 = 51
#endif
