using HiddenCost.Etl.Decoding;
using HiddenCost.Etl.Decoding.Clr;
using HiddenCost.Etl.Decoding.Kernel;
using HiddenCost.Etl.Decoding.KernelTraceControl;
using HiddenCost.Etl.Decoding.Manifest;
using HiddenCost.Etl.Decoding.Rpc;
using HiddenCost.Etl.Decoding.Schema;
using HiddenCost.Etl.Decoding.TraceLogging;
using HiddenCost.Etl.Decoding.Wmi;
using HiddenCost.Etl.Records;
using HiddenCost.Etl.Stacks;
using HiddenCost.Etl.State;
using HiddenCost.Etl.Tests.Support;
using HiddenCost.TestSupport;

namespace HiddenCost.Etl.Tests.Decoding;

/// <summary>
/// Decoders, schema parsers, the state and the stack collector on random bytes (seeded, reproducible): they
/// may refuse or decode partially, never throw or hang.
/// </summary>
[TestClass]
public sealed class HostileInputTests
{
    [TestMethod]
    public void Kernel_decoders_state_and_stacks_never_throw_on_random_payloads_seeded()
    {
        var random = new Random(20240501);
        var state = new TraceState();
        var stacks = new StackCollector();
        var files = new FileNames();
        var keys = new RegistryKeyNames();
        for (int i = 0; i < 20_000; i++)
        {
            var (group, opcodes) = DecodedKinds.Kernel[random.Next(DecodedKinds.Kernel.Length)];
            var payload = new byte[random.Next(0, 96)];
            random.NextBytes(payload);
            var e = SyntheticEvent.Kernel(group, opcodes[random.Next(opcodes.Length)], (byte)random.Next(0, 6), payload,
                is64: random.Next(2) == 0, timestamp: i, timeNs: i);
            EveryDecoder.Decode(e);
            state.Observe(e);
            stacks.Observe(e);
            files.Observe(e);
            keys.Observe(e);
            if (i % 7 == 0) stacks.Expect(e);
        }
        stacks.Complete();
        Assert.IsTrue(stacks.KeyReferences + stacks.StackEvents + stacks.KeyDefinitions > 0);
        foreach (var image in state.Images.Take(50)) state.ResolveFrame(image.ProcessId, image.ImageBase + 1, 0);
    }

    [TestMethod]
    public void Manifest_and_classic_decoders_never_throw_on_random_payloads_seeded()
    {
        var random = new Random(77);
        var providers = new[] { (ClrProviders.Runtime, new ushort[] { 81, 91, 143, 144, 152, 153 }), (ClrProviders.Rundown, new ushort[] { 143, 144, 153, 154 }),
            (RpcProvider.Id, new ushort[] { 5, 6, 7, 8 }), (WmiActivityProvider.Id, new ushort[] { 11, 13 }) };
        var state = new TraceState();
        for (int i = 0; i < 10_000; i++)
        {
            var (provider, ids) = providers[random.Next(providers.Length)];
            var payload = new byte[random.Next(0, 80)];
            random.NextBytes(payload);
            var e = SyntheticEvent.Manifest(provider, ids[random.Next(ids.Length)], (byte)random.Next(0, 4), payload, is64: random.Next(2) == 0, processId: 5);
            EveryDecoder.Decode(e);
            state.Observe(e);
            var classic = SyntheticEvent.Classic(KernelTraceControlIds.ImageIdTask, (byte)(random.Next(2) == 0 ? 0 : 0x24), 2, payload);
            EveryDecoder.Decode(classic);
            state.Observe(classic);
        }
        Assert.IsTrue(state.MethodCount >= 0);
    }

    [TestMethod]
    public void Random_TraceLogging_metadata_never_throws_or_hangs_seeded()
    {
        var random = new Random(4242);
        var decoder = new GenericEventDecoder();
        int parsed = 0;
        for (int i = 0; i < 5_000; i++)
        {
            var meta = new byte[random.Next(3, 64)];
            random.NextBytes(meta);
            meta[0] = (byte)meta.Length;
            meta[1] = 0;
            // Keep some names terminated so parsing gets past them.
            for (int z = 3; z < meta.Length; z += random.Next(2, 6)) meta[z] = 0;
            var payload = new byte[random.Next(0, 64)];
            random.NextBytes(payload);
            var e = SyntheticEvent.Manifest(Guid.NewGuid(), 1, 0, payload, extended: SyntheticEvent.ExtendedItem(ExtendedDataType.EventSchemaTraceLogging, meta));
            if (decoder.DecodeToList(e, out _, out _) is not null) parsed++;
        }
        Assert.IsTrue(parsed > 0);
    }

    [TestMethod]
    public void Random_TRACE_EVENT_INFO_and_EVENT_MAP_INFO_never_throw_seeded()
    {
        var random = new Random(99);
        int parsed = 0;
        for (int i = 0; i < 5_000; i++)
        {
            var info = new byte[random.Next(112, 400)];
            random.NextBytes(info);
            BitConverter.TryWriteBytes(info.AsSpan(100), (uint)random.Next(0, 12));
            BitConverter.TryWriteBytes(info.AsSpan(104), (uint)random.Next(0, 12));
            var result = TraceEventInfoParser.Parse(info, out _);
            if (result is not null)
            {
                parsed++;
                var payload = new byte[random.Next(0, 128)];
                random.NextBytes(payload);
                FieldCollector.Collect(result.Schema, payload, 8, null, out _);
            }
            EventMapInfoParser.Parse(info, out _);
        }
        Assert.IsTrue(parsed > 0);
    }

    [TestMethod]
    public void Nested_arrays_of_empty_structs_stop_instead_of_looping_synthetic()
    {
        // TraceLogging: struct "a" with a constant count of 65535 (0x20|0x80|24), holding struct "b" (65535, no members).
        var meta = new PayloadBuilder().U16(0).U8(0).Ansiz("Ev").Ansiz("a").U8(0xB8).U8(1).U16(65535).Ansiz("b").U8(0xB8).U8(0).U16(65535).ToArray();
        meta[0] = (byte)meta.Length;
        var e = SyntheticEvent.Manifest(Guid.NewGuid(), 1, 0, new byte[4], extended: SyntheticEvent.ExtendedItem(ExtendedDataType.EventSchemaTraceLogging, meta));
        Assert.IsTrue(new TraceLoggingDecoder().TryGetSchema(e, out var schema));
        FieldCollector.Collect(schema, e.Payload, 8, null, out var status);
        Assert.AreEqual(DecodeStatus.Invalid, status);
    }
}
