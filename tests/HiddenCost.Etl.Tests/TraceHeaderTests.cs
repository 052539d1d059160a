using System.Globalization;
using HiddenCost.Etl.Header;
using HiddenCost.Etl.Tests.Support;

namespace HiddenCost.Etl.Tests;

[TestClass]
public sealed class TraceHeaderTests
{
    [TestMethod]
    [DataRow(Samples.AmsiTrace, 8u, 18362u, 3u, 0x0800_0001u, "AMSITraceSession", "2020-02-17T12:48:30.4203138Z")]
    [DataRow(Samples.LxcoreKernel, 6u, 19041u, 0u, 0x0u, "lxcore_kernel", "2020-07-14T12:04:31.1387363Z")]
    [DataRow(Samples.ShutdownPerfDiagLogger, 2u, 18362u, 0u, 0x0200_0080u, "PerfDiag Logger", "2020-02-28T09:03:47.7445790Z")]
    [DataRow(Samples.TraceLoggingTester, 20u, 26100u, 0u, 0x0001_0001u, "Relogger", "2025-07-21T12:13:50.0802998Z")]
    [DataRow(Samples.Powershell, 32u, 22623u, 0u, 0x9u, "usermode_trace", "2023-03-29T15:12:38.0175449Z")]
    [DataRow(Samples.GcEvents, 8u, 19045u, 0u, 0x0800_0002u, "PerfViewSession", "2023-03-14T00:46:36.6946549Z")]
    [DataRow(Samples.GcRundownEvents, 8u, 19045u, 0u, 0x0800_0001u, "PerfViewSessionRundown", "2023-03-14T00:46:51.1926903Z")]
    [DataRow(Samples.NetX64, 8u, 9200u, 0u, 0x0401_0001u, "Relogger", "2020-07-29T00:07:00.6236167Z")]
    [DataRow(Samples.NetX86, 8u, 9200u, 0u, 0x0401_0001u, "Relogger", "2020-07-29T00:06:19.7984230Z")]
    [DataRow(Samples.PrimitiveTypes, 8u, 19043u, 0u, 0x0u, "solar_system", "2021-09-09T14:59:32.8578510Z")]
    [DataRow(Samples.SelfDescribingSingleEvent, 12u, 22000u, 0u, 0x0401_0001u, "Relogger", "2022-04-20T21:27:15.2722435Z")]
    public void Header_fields_match_the_recorded_session(string sample, uint processors, uint build, uint eventsLost,
        uint logFileMode, string loggerName, string startTimeUtc)
    {
        using var reader = EtlReader.Open(Samples.PathOf(sample));
        var h = reader.Header;
        Assert.AreEqual(processors, h.NumberOfProcessors);
        Assert.AreEqual(build, h.Build);
        Assert.AreEqual(8u, h.PointerSize, "every sample was logged by a 64-bit kernel");
        Assert.AreEqual(ClockType.QueryPerformanceCounter, h.ClockType);
        Assert.AreEqual(10_000_000L, h.PerfFrequency);
        Assert.AreEqual(10_000_000L, h.TicksPerSecond);
        Assert.AreEqual(eventsLost, h.EventsLost);
        Assert.AreEqual(0u, h.BuffersLost);
        Assert.AreEqual(logFileMode, h.LogFileMode);
        Assert.AreEqual((logFileMode & 0x0400_0000) != 0, h.IsCompressedMode);
        Assert.AreEqual(loggerName, h.LoggerName);
        Assert.AreEqual(DateTime.Parse(startTimeUtc, CultureInfo.InvariantCulture, DateTimeStyles.RoundtripKind), h.StartTimeUtc);
        Assert.AreEqual(DateTimeKind.Utc, h.StartTimeUtc.Kind);
    }

    [TestMethod]
    public void Win8_merged_trace_header_reads_every_field()
    {
        using var reader = EtlReader.Open(Samples.PathOf(Samples.NetX64));
        var h = reader.Header;
        Assert.AreEqual(65536u, h.BufferSize);
        Assert.AreEqual("6.2.9200", h.OsVersion);
        Assert.AreEqual((byte)2, h.SubVersion, "log format 2.0 (Win8+)");
        Assert.AreEqual((byte)0, h.SubMinorVersion);
        Assert.AreEqual(156250u, h.TimerResolution);
        Assert.AreEqual(500u, h.MaximumFileSizeMB);
        Assert.AreEqual(360u, h.BuffersWritten);
        Assert.AreEqual(1u, h.StartBuffers);
        Assert.AreEqual(3592u, h.CpuSpeedMHz);
        Assert.AreEqual(480, h.TimeZoneBiasMinutes);
        Assert.AreEqual("@tzres.dll,-212", h.TimeZoneStandardName);
        Assert.AreEqual("@tzres.dll,-211", h.TimeZoneDaylightName);
        Assert.AreEqual("[multiple files]", h.LogFileName);
        Assert.AreEqual(1942608875L, h.StartTimestamp);
        Assert.AreEqual(new DateTime(2020, 7, 29, 0, 7, 10, DateTimeKind.Utc).AddTicks(6935923), h.EndTimeUtc);
        Assert.AreEqual(new DateTime(2020, 7, 29, 0, 3, 46, DateTimeKind.Utc).AddTicks(4872939), h.BootTimeUtc);
    }

    [TestMethod]
    public void Uncompressed_kernel_logger_header_reads_every_field()
    {
        using var reader = EtlReader.Open(Samples.PathOf(Samples.ShutdownPerfDiagLogger));
        var h = reader.Header;
        Assert.AreEqual(65536u, h.BufferSize);
        Assert.AreEqual("10.0.18362", h.OsVersion);
        Assert.AreEqual(20u, h.MaximumFileSizeMB);
        Assert.AreEqual(49u, h.BuffersWritten);
        Assert.AreEqual(1992u, h.CpuSpeedMHz);
        Assert.AreEqual(-60, h.TimeZoneBiasMinutes);
        Assert.AreEqual(@"C:\Windows\system32\WDI\LogFiles\ShutdownPerfDiagLogger.etl", h.LogFileName);
        Assert.AreEqual(6365537L, h.StartTimestamp);
        Assert.IsFalse(h.IsCompressedMode);
    }

    [TestMethod]
    public void Header_event_is_time_zero_and_maps_to_the_start_time()
    {
        using var reader = EtlReader.Open(Samples.PathOf(Samples.Powershell));
        foreach (var e in reader.ReadEvents())
        {
            if (!e.Is(KernelGroups.EventTrace, 0)) continue;
            Assert.AreEqual(reader.Header.StartTimestamp, e.RawTimestamp);
            Assert.AreEqual(0L, e.TimeNs);
            return;
        }
        Assert.Fail("no header event delivered");
    }
}
