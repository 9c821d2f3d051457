/// `store.leftover` (note): what an interrupted publish left: temporary files of interrupted
/// writes, a version folder no catalog recorded, or part of one whose manifest never went up. Not
/// served (index.json does not list it); the next publish cleans or completes it.

import SoundpackSupport
struct StoreLeftover: StoreRule {
    static let id = RuleID.storeLeftover
    static let severity = Severity.note
    static let summary = "What an interrupted publish left (staging, temporary files, an unrecorded version, or files of a version whose manifest never went up); the next publish cleans or completes it."

    func check(_ store: StoreObservations) -> [Finding] {
        store.leftovers.map { finding($0, "left by an interrupted publish; the next soundpack publish removes it") }
            + store.partitionedStrays.unrecorded.map { folder, whole in
                finding(folder, whole
                    ? "a version an interrupted publish never recorded; publishing it again replaces it"
                    : "part of a version an interrupted publish never finished (it has no manifest.json); publishing that version again completes it")
            }
    }
}

extension RuleID {
    /// `store.leftover`, declared by `StoreLeftover`.
    public static let storeLeftover = RuleID(declaring: "store.leftover")
}
