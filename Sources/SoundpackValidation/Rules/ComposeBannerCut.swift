import SoundpackSupport

/// `compose.banner-cut` (warning above `checks.bannerCutSeconds`, default 5 s): the longest
/// announcement of any amount up to `maxAmount` may be cut short when the user's banner style is
/// "Temporary". Public reports (invertase/notifee #436 and #1066, MaikuB/flutter_local_notifications
/// #2213) say iOS stops a custom notification sound after about 5–7 s when the temporary banner goes
/// away; Apple documents no such limit, so this is a warning, and "Persistent" banners avoid it.
struct ComposeBannerCut: PackRule {
    static let id = RuleID.composeBannerCut
    static let severity = Severity.warning
    static let summary = "The longest announcement up to maxAmount is above checks.bannerCutSeconds; Temporary banners may cut it (public reports, not Apple-documented)."

    func check(_ pack: InspectedPack) -> [Finding] {
        guard let checks = pack.packFile?.checks, let worst = pack.worstCase, worst.seconds > checks.bannerCutSeconds else { return [] }
        return [finding(at: "maxAmount",
                        "the longest announcement, for \(worst.said), lasts \(Format.seconds(worst.seconds)), above \(Format.seconds(checks.bannerCutSeconds)): Temporary banners may stop it early (reported, not Apple-documented); shorten the clips or lower maxAmount, or have users choose Persistent banners")]
    }
}

extension RuleID {
    /// `compose.banner-cut`, declared by `ComposeBannerCut`.
    public static let composeBannerCut = RuleID(declaring: "compose.banner-cut")
}
