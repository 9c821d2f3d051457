// How many cores this process may use: the processors online, fewer when it is bound to some of
// them (`taskset`, a cpuset) or when its control group's CPU quota grants fewer (a container
// started with `--cpus`, a CI runner's pod with a CPU limit). Foundation's `activeProcessorCount`
// counts the processors online only, so a runner limited to 2 of 64 cores would start 64 workers.

#if os(Linux)
import CSyscalls
#endif
import Foundation

extension ProcessInfo {
    /// Cores this process may use, at least 1: the processors online, fewer when the calling
    /// thread may run on fewer (sched_getaffinity) or the CPU quota of its control group, or of a
    /// group above it, allows fewer (the quota over the period, rounded up).
    package static var activeCores: Int {
        var cores = processInfo.activeProcessorCount
        #if os(Linux)
        let allowed = Int(soundpack_allowed_processors())
        if allowed > 0 { cores = min(cores, allowed) }
        if let quota = CPUQuota.ofThisProcess { cores = min(cores, quota) }
        #endif
        return max(1, cores)
    }
}

/// The CPU quota of a Linux control group, in whole cores.
package enum CPUQuota {
    /// This process's, read once: the groups do not change while a command runs.
    package static let ofThisProcess: Int? = cores(memberships: read("/proc/self/cgroup") ?? "", root: "/sys/fs/cgroup")

    /// The smallest quota of the group each line of `memberships` (the text of /proc/self/cgroup)
    /// names and of every group above it, in the hierarchies mounted under `root`: cgroup v2's
    /// `cpu.max` ("max 100000", or "150000 100000": 1.5 cores, so 2) for the line `0::PATH`, v1's
    /// `cpu.cfs_quota_us` and `cpu.cfs_period_us` (-1: none) under `root/cpu` for the line whose
    /// controllers include `cpu`. A group whose folder is not there (a container shows the host's
    /// path, with its own group mounted at the root) is skipped; the root itself is always read.
    /// nil when no group has a quota, or nothing can be read.
    package static func cores(memberships: String, root: String, read: (String) -> String? = CPUQuota.read) -> Int? {
        var smallest: Int?
        for line in memberships.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, fields[2].hasPrefix("/") else { continue }
            let controllers = fields[1].split(separator: ",")
            let version2 = fields[0] == "0" && controllers.isEmpty
            guard version2 || controllers.contains("cpu") else { continue }
            for folder in folders(String(fields[2]), under: version2 ? root : root + "/cpu") {
                let cores = version2 ? read(folder + "/cpu.max").flatMap(cgroup2)
                    : cgroup1(quota: read(folder + "/cpu.cfs_quota_us"), period: read(folder + "/cpu.cfs_period_us"))
                if let cores { smallest = min(smallest ?? cores, cores) }
            }
        }
        return smallest
    }

    /// `path`'s folder under `mount` and each folder above it, up to `mount` itself.
    private static func folders(_ path: String, under mount: String) -> [String] {
        var parts = path.split(separator: "/").filter { $0 != "." && $0 != ".." }
        var folders: [String] = []
        while !parts.isEmpty {
            folders.append(mount + "/" + parts.joined(separator: "/"))
            parts.removeLast()
        }
        return folders + [mount]
    }

    /// cgroup v2's `cpu.max`: "QUOTA PERIOD" in microseconds, QUOTA "max" when there is none.
    package static func cgroup2(_ text: String) -> Int? {
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, let quota = Int(fields[0]), let period = Int(fields[1]) else { return nil }
        return wholeCores(quota: quota, period: period)
    }

    /// cgroup v1's `cpu.cfs_quota_us` (-1 when there is none) and `cpu.cfs_period_us`.
    package static func cgroup1(quota: String?, period: String?) -> Int? {
        guard let quota = quota.flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }),
              let period = period.flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) else { return nil }
        return wholeCores(quota: quota, period: period)
    }

    /// The quota over the period, rounded up: 1.5 cores of time lets two workers run most of it.
    private static func wholeCores(quota: Int, period: Int) -> Int? {
        guard quota > 0, period > 0 else { return nil }
        return quota / period + (quota % period == 0 ? 0 : 1)
    }

    /// The first 4 KiB of a file of /proc or /sys (which say their size is 0 or 4096 whatever they
    /// hold, so they are read to their end); nil when it cannot be opened.
    static func read(_ path: String) -> String? {
        let fd = SystemCall.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 4_096)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { SystemCall.read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        return String(decoding: bytes[..<filled], as: UTF8.self)
    }
}
