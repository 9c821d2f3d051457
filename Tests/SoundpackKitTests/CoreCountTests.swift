// The cores the worker pools size themselves by: fewer when the process is bound to some
// processors, or its control group's CPU quota grants fewer.

import Foundation
import Testing
import SoundpackTestSupport
@testable import SoundpackKit

#if os(Linux)
import Glibc
#endif

@Suite struct CoreCountTests {
    #if os(Linux)
    /// sched_getaffinity(2) and sched_setaffinity(2), which Glibc's Swift module does not offer.
    private typealias Affinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer?) -> Int32
    private static func affinityCall(_ name: String) throws -> Affinity {
        let symbol = try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), name), "\(name) not found")
        return unsafeBitCast(symbol, to: Affinity.self)
    }

    /// Bound to one processor (as `taskset -c 0` binds a command), this thread counts one core,
    /// where Foundation's activeProcessorCount still counts every processor online.
    @Test func aThreadBoundToOneProcessorCountsOneCore() throws {
        let (get, set) = (try Self.affinityCall("sched_getaffinity"), try Self.affinityCall("sched_setaffinity"))
        var original = cpu_set_t(), one = cpu_set_t()
        let size = MemoryLayout<cpu_set_t>.size
        try #require(get(0, size, &original) == 0)
        let first = try #require(withUnsafeBytes(of: original) { bytes in
            bytes.enumerated().lazy.compactMap { index, byte in byte == 0 ? nil : index * 8 + byte.trailingZeroBitCount }.first
        })
        withUnsafeMutableBytes(of: &one) { $0[first / 8] = 1 << (first % 8) }
        try #require(set(0, size, &one) == 0)
        let bound = ProcessInfo.activeCores
        try #require(set(0, size, &original) == 0)
        #expect(bound == 1)
        let allowed = withUnsafeBytes(of: original) { $0.reduce(0) { $0 + $1.nonzeroBitCount } }
        #expect(ProcessInfo.activeCores == min(ProcessInfo.processInfo.activeProcessorCount, allowed, CPUQuota.ofThisProcess ?? .max))
    }
    #endif

    /// cgroup v2: the smallest quota of the group and the groups above it, rounded up to whole cores.
    @Test func theSmallestQuotaOnTheWayUpCounts() throws {
        let root = TemporaryFolder()
        try root.write("max 100000\n", to: "kubepods/cpu.max")
        try root.write("150000 100000\n", to: "kubepods/pod1/cpu.max")
        try root.write("max 100000\n", to: "kubepods/pod1/runner/cpu.max")
        #expect(CPUQuota.cores(memberships: "0::/kubepods/pod1/runner\n", root: root.path) == 2)
        try root.write("50000 100000\n", to: "kubepods/cpu.max")
        #expect(CPUQuota.cores(memberships: "0::/kubepods/pod1/runner\n", root: root.path) == 1)
    }

    /// A container shows the host's path for its group, with its own group mounted at the root.
    @Test func aContainersOwnGroupIsReadAtTheRoot() throws {
        let root = TemporaryFolder()
        try root.write("200000 100000\n", to: "cpu.max")
        #expect(CPUQuota.cores(memberships: "0::/docker/0123abcd\n", root: root.path) == 2)
        try root.write("max 100000\n", to: "cpu.max")
        #expect(CPUQuota.cores(memberships: "0::/docker/0123abcd\n", root: root.path) == nil)
    }

    /// cgroup v1: the `cpu` controller's hierarchy, its quota -1 when there is none.
    @Test func aVersion1QuotaIsReadFromTheCPUHierarchy() throws {
        let root = TemporaryFolder()
        try root.write("-1\n", to: "cpu/cpu.cfs_quota_us")
        try root.write("100000\n", to: "cpu/cpu.cfs_period_us")
        try root.write("250000\n", to: "cpu/ci/job/cpu.cfs_quota_us")
        try root.write("100000\n", to: "cpu/ci/job/cpu.cfs_period_us")
        let memberships = "12:memory:/ci/job\n4:cpu,cpuacct:/ci/job\n1:name=systemd:/ci/job\n0::/ci/job\n"
        #expect(CPUQuota.cores(memberships: memberships, root: root.path) == 3)
        #expect(CPUQuota.cores(memberships: "1:name=systemd:/ci/job\n12:memory:/ci/job\n", root: root.path) == nil)
    }

    /// What the files hold is checked: no quota, a zero or negative one, numbers that do not fit,
    /// words, and a path climbing out of the hierarchy give no limit, never a trap or 0 cores.
    @Test func unusableQuotasGiveNoLimit() throws {
        for text in ["max 100000", "0 100000", "-5 100000", "100000 0", "100000", "99999999999999999999 1", "lots of cores", ""] {
            #expect(CPUQuota.cgroup2(text) == nil, "\(text)")
        }
        #expect(CPUQuota.cgroup1(quota: "-1", period: "100000") == nil)
        #expect(CPUQuota.cgroup1(quota: "100000", period: nil) == nil)
        #expect(CPUQuota.cgroup2("9223372036854775807 1") == Int.max)
        let root = TemporaryFolder()
        try root.write("100000 100000\n", to: "inside/cpu.max")
        #expect(CPUQuota.cores(memberships: "0::/../../inside\n", root: root.path + "/inside") == 1)
        #expect(CPUQuota.cores(memberships: "garbage\n::\n0::relative\n", root: root.path + "/inside") == nil)
        #expect(ProcessInfo.activeCores >= 1 && ProcessInfo.activeCores <= ProcessInfo.processInfo.activeProcessorCount)
    }
}
