using HiddenCost.Analysis;
using HiddenCost.Analysis.Model;
using Microsoft.Performance.SDK.Processing;

namespace HiddenCost.Wpa.Tests.Host;

/// <summary>
/// What WPA sees when the analysis itself breaks (a bug, not a bad trace): the processor is driven as the host
/// drives it, with an analysis that throws, and nothing may escape.
/// </summary>
[TestClass]
public sealed class ProcessorFailureTests
{
    private static (HiddenCostDataProcessor Processor, TestHost Host) Processor(AnalyzeTrace analyze, params string[] paths) =>
        Processor(new TestHost(), analyze, paths);

    private static (HiddenCostDataProcessor Processor, TestHost Host) Processor(TestHost host, AnalyzeTrace analyze, params string[] paths)
    {
        var processor = new HiddenCostDataProcessor(paths, TableCatalog.All, analyze, ProcessorOptions.Default, host, host);
        foreach (var spec in TableCatalog.All) processor.EnableTable(HiddenCost.Wpa.Mapping.TableDescriptors.For(spec));
        return (processor, host);
    }

    private static RecordingTableBuilder Build(ICustomDataProcessor processor, TableSpec spec)
    {
        var builder = new RecordingTableBuilder();
        processor.BuildTable(HiddenCost.Wpa.Mapping.TableDescriptors.For(spec), builder);
        return builder;
    }

    [TestMethod]
    public void Analysis_that_throws_leaves_every_table_empty_with_the_error_and_logs_the_exception()
    {
        var bug = new InvalidOperationException("boom");
        var (processor, host) = Processor((_, _, _, _) => throw bug, "/traces/a.etl");

        processor.ProcessAsync(new Progress<int>(), CancellationToken.None).GetAwaiter().GetResult();

        foreach (var spec in TableCatalog.All)
        {
            var table = Build(processor, spec);
            Assert.AreEqual(0, table.RowCount, spec.Name);
            Assert.AreEqual("/traces/a.etl: analysis failed: InvalidOperationException: boom", table.DefaultConfiguration!.Description);
        }
        Assert.AreSame(bug, host.Log.First(e => e.Level == "Error").Exception);
        Assert.AreEqual("Error: HiddenCost: /traces/a.etl: analysis failed: InvalidOperationException: boom", host.Messages.Single());
        Assert.AreEqual("/traces/a.etl: analysis failed: InvalidOperationException: boom", processor.GetDataSourceInfo().Errors.Single().Message);
    }

    [TestMethod]
    public void Without_a_user_to_read_them_errors_and_warnings_are_logged_and_listed_not_shown()
    {
        const string Damage = "/traces/a.etl is damaged (offset 0x2000: file ends early): only part was read";
        var (processor, host) = Processor(new TestHost { IsInteractive = false }, (path, _, _, _) =>
            new AnalysisResult(path, TableCatalog.All.Select(spec => Table.Empty(spec)).ToArray(), null) { Warning = Damage }, "/traces/a.etl", "/traces/b.etl");

        processor.ProcessAsync(new Progress<int>(), CancellationToken.None).GetAwaiter().GetResult();

        Assert.AreEqual(0, host.Messages.Count, string.Join("; ", host.Messages));
        Assert.AreEqual(2, host.Entries("Warn").Count(), "the damage and the trace not analysed");
        Assert.AreEqual(Damage, processor.GetDataSourceInfo().Errors.Single().Message);

        var (failed, failedHost) = Processor(new TestHost { IsInteractive = false }, (_, _, _, _) => throw new InvalidOperationException("boom"), "/traces/a.etl");
        failed.ProcessAsync(new Progress<int>(), CancellationToken.None).GetAwaiter().GetResult();
        Assert.AreEqual(0, failedHost.Messages.Count);
        Assert.AreEqual(1, failedHost.Entries("Error").Count(e => e.Text.Contains("boom", StringComparison.Ordinal)));
    }

    [TestMethod]
    public void Table_notes_are_logged_at_their_severity_and_the_trace_warning_they_repeat_only_once()
    {
        const string Damage = "/traces/a.etl is damaged (offset 0x2000: file ends early): only part was read";
        var (processor, host) = Processor(new TestHost { IsInteractive = false }, (path, _, _, _) =>
        {
            var tables = TableCatalog.All.Select(Table.Empty).ToArray();
            foreach (var table in tables) table.AddNote(TableNote.Warning(TraceNoteCodes.Partial, Damage));
            tables[0].AddNote(TableNote.Warning(TraceNoteCodes.EventsLost, "ETW lost 3 events"));
            tables[1].AddNote(TableNote.Info("event-counts.test", "what the trace lacks"));
            return new AnalysisResult(path, tables, null) { Warning = Damage };
        }, "/traces/a.etl");

        processor.ProcessAsync(new Progress<int>(), CancellationToken.None).GetAwaiter().GetResult();

        CollectionAssert.AreEqual(new[] { Damage, $"{TableCatalog.All[0].Name}: ETW lost 3 events" }, host.Entries("Warn").Select(e => e.Text).ToArray());
        Assert.AreEqual($"{TableCatalog.All[1].Name}: what the trace lacks", host.Entries("Info").Single().Text);
        Assert.AreEqual(0, host.Entries("Error").Count());
    }

    [TestMethod]
    public void A_damaged_trace_is_shown_as_a_warning_and_listed_with_the_data_source_errors()
    {
        const string Damage = "/traces/a.etl is damaged (offset 0x2000: file ends inside a 4096-byte buffer (100 bytes present); the file ends early): only part was read";
        var (processor, host) = Processor((path, _, _, _) =>
            new AnalysisResult(path, TableCatalog.All.Select(spec => Table.Empty(spec)).ToArray(), null) { Warning = Damage }, "/traces/a.etl");

        processor.ProcessAsync(new Progress<int>(), CancellationToken.None).GetAwaiter().GetResult();

        Assert.AreEqual($"Warning: HiddenCost: {Damage}", host.Messages.Single());
        var error = processor.GetDataSourceInfo().Errors.Single();
        Assert.AreEqual("HiddenCost.Damaged", error.Code);
        Assert.AreEqual(Damage, error.Message);
        Assert.AreEqual(0, host.Entries("Error").Count());
    }

    [TestMethod]
    public void Cancellation_by_the_host_ends_processing_as_cancelled_not_failed()
    {
        using var cancel = new CancellationTokenSource();
        var (processor, host) = Processor((_, _, _, token) =>
        {
            cancel.Cancel();
            token.ThrowIfCancellationRequested();
            throw new AssertFailedException("not cancelled");
        }, "/traces/a.etl");

        var task = processor.ProcessAsync(new Progress<int>(), cancel.Token);

        Assert.Throws<OperationCanceledException>(() => task.GetAwaiter().GetResult());
        Assert.IsTrue(task.IsCanceled);
        Assert.AreEqual(0, host.Entries("Error").Count());
    }

    [TestMethod]
    public void Table_built_before_processing_comes_back_empty_with_the_reason()
    {
        var (processor, _) = Processor((path, _, _, _) => new AnalysisResult(path, [], null), "/traces/a.etl");

        var table = Build(processor, TableCatalog.All[0]);

        Assert.AreEqual(0, table.RowCount);
        Assert.AreEqual("HiddenCost: the trace was not processed before its tables were built", table.DefaultConfiguration!.Description);
    }

    [TestMethod]
    public void Table_the_analysis_did_not_return_is_logged_not_thrown()
    {
        var (processor, host) = Processor((path, _, _, _) => new AnalysisResult(path, [], null), "/traces/a.etl");
        processor.ProcessAsync(new Progress<int>(), CancellationToken.None).GetAwaiter().GetResult();

        var table = Build(processor, TableCatalog.All[0]);

        Assert.IsNull(table.RowCount);
        StringAssert.Contains(host.Entries("Error").Single().Text, "HiddenCost has no table " + TableCatalog.All[0].Id);
    }

    [TestMethod]
    public void Second_trace_given_to_one_processor_is_named_in_a_warning_the_user_sees()
    {
        var analysed = new List<string>();
        var (processor, host) = Processor((path, _, _, _) =>
        {
            analysed.Add(path);
            return new AnalysisResult(path, TableCatalog.All.Select(s => Table.Empty(s)).ToArray(), null);
        }, "/traces/a.etl", "/traces/b.etl");

        processor.ProcessAsync(new Progress<int>(), CancellationToken.None).GetAwaiter().GetResult();

        CollectionAssert.AreEqual(new[] { "/traces/a.etl" }, analysed);
        Assert.AreEqual("HiddenCost analyses one trace per processor: analysed /traces/a.etl, not /traces/b.etl", host.Entries("Warn").Single().Text);
        Assert.AreEqual("Warning: HiddenCost analysed only /traces/a.etl; open /traces/b.etl on its own to see its tables.", host.Messages.Single(),
            "shown to the user, not only logged");
    }
}
