using HiddenCost.Etl.Decoding;
using HiddenCost.Etl.Decoding.Clr;
using HiddenCost.Etl.Decoding.KernelTraceControl;
using HiddenCost.Etl.Decoding.Rpc;
using HiddenCost.Etl.Tests.Support;
using HiddenCost.TestSupport;

namespace HiddenCost.Etl.Tests.Decoding;

/// <summary>
/// <see cref="TypedDecoders.Rejects"/>: it names exactly the events of a decoded kind that its decoder gives up on,
/// for every typed decoder, and nothing in the real samples.
/// </summary>
[TestClass]
public sealed class TypedDecodersTests
{
    [TestMethod]
    public void An_empty_payload_is_rejected_for_every_kind_a_typed_decoder_reads()
    {
        var strings = new StringPool();
        int kinds = 0;
        foreach (var (group, opcodes) in DecodedKinds.Kernel)
            foreach (var opcode in opcodes)
                foreach (bool is64 in new[] { true, false })
                {
                    var e = SyntheticEvent.Kernel(group, opcode, 2, [], is64);
                    Assert.IsTrue(TypedDecoders.Rejects(e, strings), $"kernel 0x{group:X2}/{opcode} 64-bit {is64}");
                    Assert.AreEqual(0, EveryDecoder.Decode(e, strings), $"kernel 0x{group:X2}/{opcode}");
                    kinds++;
                }
        foreach (var (provider, ids) in DecodedKinds.Providers)
            foreach (var id in ids)
            {
                var e = SyntheticEvent.Manifest(provider, id, 2, []);
                Assert.IsTrue(TypedDecoders.Rejects(e, strings), $"{provider} event {id}");
                Assert.AreEqual(0, EveryDecoder.Decode(e, strings), $"{provider} event {id}");
                kinds++;
            }
        foreach (var (task, opcode) in DecodedKinds.Classic)
        {
            var e = SyntheticEvent.Classic(task, opcode, 2, []);
            Assert.IsTrue(TypedDecoders.Rejects(e, strings), $"{task} opcode {opcode}");
            kinds++;
        }
        Assert.AreEqual(2 * 71 + 17 + 3, kinds);
    }

    [TestMethod]
    public void Events_no_typed_decoder_reads_are_never_rejected_even_when_empty()
    {
        var strings = new StringPool();
        Assert.IsFalse(TypedDecoders.Rejects(SyntheticEvent.Manifest(ClrProviders.Runtime, ClrProviders.ContentionStartId, 0, []), strings),
            "ContentionStart v0 has no payload");
        Assert.IsFalse(TypedDecoders.Rejects(SyntheticEvent.Kernel(KernelGroups.DiskIo, 10, 2, []), strings), "DiskIo Read");
        Assert.IsFalse(TypedDecoders.Rejects(SyntheticEvent.Kernel(KernelGroups.Process, 1, 1, new byte[64]), strings), "Process Start v1 (XP)");
        Assert.IsFalse(TypedDecoders.Rejects(SyntheticEvent.Kernel(KernelGroups.Registry, 16, 0, new byte[64]), strings), "Registry v0 (XP)");
        Assert.IsFalse(TypedDecoders.Rejects(SyntheticEvent.Kernel(KernelGroups.Thread, 37, 2, []), strings), "Thread CompCS");
        Assert.IsFalse(TypedDecoders.Rejects(SyntheticEvent.Kernel(KernelGroups.PerfInfo, 67, 2, []), strings), "PerfInfo ISR");
        Assert.IsFalse(TypedDecoders.Rejects(SyntheticEvent.Kernel(KernelGroups.Process, 32, 2, []), strings), "Process PerfCtr");
        Assert.IsFalse(TypedDecoders.Rejects(SyntheticEvent.Manifest(ClrProviders.Runtime, 1, 2, []), strings), "CLR GCStart");
        Assert.IsFalse(TypedDecoders.Rejects(SyntheticEvent.Manifest(RpcProvider.Id, 9, 2, []), strings), "RPC event 9");
        Assert.IsFalse(TypedDecoders.Rejects(SyntheticEvent.Classic(KernelTraceControlIds.ImageIdTask, KernelTraceControlIds.DbgIdPpdb, 2, []), strings),
            "DbgID_PPDB");
    }

    [TestMethod]
    public void Random_payloads_are_rejected_exactly_when_no_decoder_takes_them_seeded()
    {
        var random = new Random(20261123);
        var strings = new StringPool();
        int rejected = 0, decoded = 0;
        for (int i = 0; i < 20_000; i++)
        {
            var payload = new byte[random.Next(0, 64)];
            random.NextBytes(payload);
            bool rejects, any;
            if (random.Next(4) == 0)
            {
                var (provider, ids) = DecodedKinds.Providers[random.Next(DecodedKinds.Providers.Length)];
                var e = SyntheticEvent.Manifest(provider, ids[random.Next(ids.Length)], (byte)random.Next(0, 4), payload, is64: random.Next(2) == 0);
                (rejects, any) = (TypedDecoders.Rejects(e, strings), EveryDecoder.Decode(e, strings) > 0);
            }
            else
            {
                var (group, opcodes) = DecodedKinds.Kernel[random.Next(DecodedKinds.Kernel.Length)];
                var e = SyntheticEvent.Kernel(group, opcodes[random.Next(opcodes.Length)], (byte)random.Next(0, 6), payload, is64: random.Next(2) == 0);
                (rejects, any) = (TypedDecoders.Rejects(e, strings), EveryDecoder.Decode(e, strings) > 0);
                // EveryDecoder counts a stack's frames, and a stack of none decodes as 0 of them.
                if (group == KernelGroups.StackWalk && !any && !rejects) continue;
                if (group is KernelGroups.Process or KernelGroups.Registry && e.Version < 2)
                {
                    Assert.IsFalse(rejects || any, $"case {i}: a version {e.Version} layout is neither decoded nor called damaged");
                    continue;
                }
            }
            Assert.AreNotEqual(any, rejects, $"case {i}: rejected {rejects}, decoded by some decoder {any}");
            if (rejects) rejected++;
            else decoded++;
        }
        Assert.IsTrue(rejected > 1_000 && decoded > 1_000, $"{rejected} rejected, {decoded} decoded: the cases test both");
    }

    [TestMethod]
    public void No_event_of_the_real_samples_is_rejected()
    {
        var strings = new StringPool();
        foreach (var sample in Samples.Readable)
        {
            using var reader = EtlReader.Open(Samples.PathOf(sample));
            long events = 0, rejected = 0;
            foreach (var e in reader.ReadEvents())
            {
                events++;
                if (TypedDecoders.Rejects(e, strings)) rejected++;
            }
            Assert.IsTrue(events > 0, sample);
            Assert.AreEqual(0, rejected, sample);
        }
    }
}
