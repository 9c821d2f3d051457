// Announcing on iOS 12.1–14, where an extension cannot play audio and a joined custom sound is not
// reliably played: one local notification per clip, each with that clip as its sound, scheduled
// one after another. The offsets come from each clip's real duration in the manifest, not a fixed
// 0.7 s, and the identifiers keep two payments' sequences apart.

import Foundation

/// The schedule of one announcement as local notifications, one clip each.
public struct LocalNotificationSequence: Sendable, Equatable {
    /// One notification: its identifier, the clip file it plays and when, in seconds from now.
    public struct Entry: Sendable, Equatable {
        public var identifier: String
        public var soundName: String
        public var offsetSeconds: Double
    }

    /// iOS keeps at most this many pending local notifications per app.
    public static let pendingLimit = 64
    /// A time-interval trigger needs an interval above 0: the first clip plays this soon at the earliest.
    public static let minimumOffsetSeconds = 0.1
    /// `soundpack.announcement.`: every identifier starts so, to find and cancel them.
    public static let identifierPrefix = "soundpack.announcement."

    public var entries: [Entry]
    /// When the last clip ends, in seconds from now: the earliest a next sequence may start.
    public var endSeconds: Double

    /// Why an announcement cannot be scheduled.
    public enum PlanningError: Error, Equatable, Sendable, CustomStringConvertible {
        case tooManyClips(needed: Int, free: Int)
        case unknownDuration(file: String)

        public var description: String {
            switch self {
            case .tooManyClips(let needed, let free):
                return "the announcement needs \(needed) notifications but only \(free) of iOS's \(LocalNotificationSequence.pendingLimit) pending slots are free"
            case .unknownDuration(let file): return "the manifest gives no duration for \(file)"
            }
        }
    }

    /// Schedules `plan`'s clips back to back, starting at `startSeconds` (the end of a sequence
    /// still playing, so two payments never interleave), with `gapSeconds` between clips.
    ///
    /// - Parameters:
    ///   - payment: a name unique to this payment (the push's identifier); it goes into every
    ///     identifier, so the next payment's notifications never replace or mix with these.
    ///   - pending: notifications already pending (other sequences, other features of the app).
    public static func schedule(_ plan: ClipPlan, pack: SharedPack, payment: String, startSeconds: Double = 0,
                                gapSeconds: Double = 0, pending: Int = 0) throws(PlanningError) -> LocalNotificationSequence {
        let free = max(0, pendingLimit - pending)
        guard plan.clips.count <= free else { throw .tooManyClips(needed: plan.clips.count, free: free) }
        var entries: [Entry] = []
        var offset = max(minimumOffsetSeconds, startSeconds)
        for (index, clip) in plan.clips.enumerated() {
            guard let duration = pack.clips[clip.token]?.durationSeconds, duration.isFinite, duration > 0 else {
                throw .unknownDuration(file: clip.file)
            }
            entries.append(Entry(identifier: "\(identifierPrefix)\(payment).\(index)", soundName: clip.file, offsetSeconds: offset))
            offset += duration + (index < plan.clips.count - 1 ? max(0, gapSeconds) : 0)
        }
        return LocalNotificationSequence(entries: entries, endSeconds: offset)
    }
}
