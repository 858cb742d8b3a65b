extension NetworkLayer {
    /// The library's version, as its release is tagged (`1.0.0-rc.1`): a semantic version, whose parts
    /// promise what <doc:Versioning> says. Worth a line in a bug report or a diagnostics screen.
    ///
    /// The release commit sets it (`.github/RELEASING.md`); a test holds it to the CHANGELOG: the newest
    /// version heading, or, while changes wait under "Unreleased", a greater version than that heading.
    public static var version: String { "1.0.0-rc.1" }
}
