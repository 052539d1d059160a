using HiddenCost.Analysis.Model;
using HiddenCost.Wpa.Mapping;
using HiddenCost.Wpa.Tests.Host;
using Microsoft.Performance.SDK;
using Microsoft.Performance.SDK.Processing;
using static HiddenCost.Wpa.Tests.Mapping.SampleTables;
using SdkColumnRole = Microsoft.Performance.SDK.Processing.ColumnRole;

namespace HiddenCost.Wpa.Tests.Mapping;

[TestClass]
public sealed class TableMappingTests
{
    private static readonly Guid PivotBar = Guid.Parse("319E867F-245A-436E-9735-DB620F844EDC");
    private static readonly Guid GraphBar = Guid.Parse("A5CE8FAF-5668-49FC-82BC-D2C482086C06");

    private static RecordingTableBuilder Build(Table table, params string[] problems)
    {
        var builder = new RecordingTableBuilder();
        TableBuilding.Build(table, builder, problems.Select(p => TableNote.Info("test", p)).ToArray());
        return builder;
    }

    [TestMethod]
    public void Descriptor_keeps_the_table_guid_name_description_and_category()
    {
        var descriptor = TableDescriptors.For(Spec());

        Assert.AreEqual(TableId, descriptor.Guid);
        Assert.AreEqual("Hook Cost", descriptor.Name);
        Assert.AreEqual("CPU spent inside syscall hooks, per process", descriptor.Description);
        Assert.AreEqual("HiddenCost", descriptor.Category);
        Assert.IsFalse(descriptor.IsMetadataTable);
        Assert.AreEqual(TableLayoutStyle.GraphAndTable, descriptor.DefaultLayout);
    }

    [TestMethod]
    public void Catalogue_tables_without_a_start_time_or_a_figure_open_as_tables()
    {
        var layouts = HiddenCost.Analysis.TableCatalog.All.ToDictionary(t => t.Name, t => TableDescriptors.For(t).DefaultLayout);
        foreach (var name in new[] { "Trace Info", "Event Counts", "Trace Readiness", "Spin-Wait by Process", "Directory Notify Victims" })
            Assert.AreEqual(TableLayoutStyle.Table, layouts[name], name);
        foreach (var name in new[] { "Syscall Hook Overhead", "Profiling Gaps", "Spin-Wait Cost per Lock", "Directory Notify Buffers", "Event Log Render Cost" })
            Assert.AreEqual(TableLayoutStyle.GraphAndTable, layouts[name], name);
    }

    [TestMethod]
    public void Table_with_nothing_to_graph_opens_as_a_table_and_blank_texts_fall_back()
    {
        var descriptor = TableDescriptors.For(InfoSpec());

        Assert.AreEqual(TableLayoutStyle.Table, descriptor.DefaultLayout);
        Assert.AreEqual("Facts", descriptor.Description);
        Assert.AreEqual("Other", descriptor.Category);
    }

    [TestMethod]
    public void Columns_keep_the_spec_guids_and_names_with_units_as_given()
    {
        var builder = Build(TwoRows());

        CollectionAssert.AreEqual(Spec().Columns.Select(c => c.Id).ToList(), builder.Columns.Select(c => c.Configuration.Metadata.Guid).ToList());
        CollectionAssert.AreEqual(
            new[] { "Process", "PID", "Start", "End", "Duration", "Hook CPU (ms)", "Calls", "Share (%)", "Provider Id", "Signed" },
            builder.Columns.Select(c => c.Configuration.Metadata.Name).ToList());
        Assert.AreEqual("Image name", builder.Column("Process").Configuration.Metadata.Description);
        Assert.AreEqual("PID", builder.Column("PID").Configuration.Metadata.Description);
    }

    [TestMethod]
    public void Time_columns_project_timestamps_and_deltas_in_nanoseconds_since_trace_start()
    {
        var builder = Build(TwoRows());

        Assert.AreEqual(typeof(Timestamp), builder.Column("Start").DataType);
        Assert.AreEqual(typeof(Timestamp), builder.Column("End").DataType);
        Assert.AreEqual(typeof(TimestampDelta), builder.Column("Duration").DataType);
        Assert.AreEqual(new Timestamp(1_500), builder.Cell(0, "Start"));
        Assert.AreEqual(new Timestamp(9_250), builder.Cell(1, "End"));
        Assert.AreEqual(new TimestampDelta(250), builder.Cell(1, "Duration"));
    }

    [TestMethod]
    public void Time_columns_fill_the_start_end_and_duration_roles()
    {
        var configuration = Build(TwoRows()).DefaultConfiguration!;

        Assert.AreEqual(3, configuration.ColumnRoles.Count);
        Assert.AreEqual(Start.Id, configuration.ColumnRoles[SdkColumnRole.StartTime]);
        Assert.AreEqual(End.Id, configuration.ColumnRoles[SdkColumnRole.EndTime]);
        Assert.AreEqual(Duration.Id, configuration.ColumnRoles[SdkColumnRole.Duration]);
        Assert.AreEqual(ChartType.StackedLine, configuration.ChartType);
    }

    [TestMethod]
    public void Directory_notify_rows_of_a_watcher_that_never_completed_still_end_on_the_timeline()
    {
        var tracker = new HiddenCost.Analysis.Tables.DirectoryNotify.DirectoryNotifyTracker();
        tracker.FileName(0x10, @"\Device\HarddiskVolume3\idle");
        tracker.Arm(1_000, 1, 0x20, 0x10, new HiddenCost.Analysis.Common.ProcessRef(100, 0, "watcher.exe"), 65_536);
        var (buffers, _) = tracker.Build(traceEndNs: 9_000);
        var builder = Build(buffers);
        var configuration = builder.DefaultConfiguration!;

        Assert.IsNull(buffers.Rows[0].LastCompletion);
        Assert.AreEqual(buffers.Spec.Columns[buffers.Spec.IndexOf("First Arm")].Id, configuration.ColumnRoles[SdkColumnRole.StartTime]);
        Assert.AreEqual(buffers.Spec.Columns[buffers.Spec.IndexOf("Watch End")].Id, configuration.ColumnRoles[SdkColumnRole.EndTime]);
        Assert.AreEqual(typeof(Timestamp), builder.Column("Watch End").DataType);
    }

    [TestMethod]
    public void A_time_column_with_an_empty_cell_fills_no_role()
    {
        // A row still open at the end of the trace has no End: the column becomes Timestamp?, which the timeline does
        // not take for an end, so the rows graph by start and duration.
        var table = Definition().Table(
        [
            Row("svchost.exe", 1234, 1_500, 4_000, 2_500, 0.75, 12, 40.0, signed: true),
            Row("lsass.exe", 88, 9_000, null, 250, 1.25, 3, 60.0, signed: false),
        ]);
        var builder = Build(table);
        var configuration = builder.DefaultConfiguration!;

        Assert.AreEqual(typeof(Timestamp?), builder.Column("End").DataType);
        Assert.IsFalse(configuration.ColumnRoles.ContainsKey(SdkColumnRole.EndTime));
        Assert.AreEqual(Start.Id, configuration.ColumnRoles[SdkColumnRole.StartTime]);
        Assert.AreEqual(Duration.Id, configuration.ColumnRoles[SdkColumnRole.Duration]);
        Assert.AreEqual(typeof(Timestamp), builder.Column("Start").DataType);
    }

    [TestMethod]
    public void Pivot_columns_sit_left_of_the_pivot_bar_and_the_graphed_figure_right_of_the_graph_bar()
    {
        var builder = Build(TwoRows());
        var configuration = builder.DefaultConfiguration!;

        CollectionAssert.AreEqual(
            new[] { Process.Id, PivotBar, Pid.Id, Start.Id, End.Id, Duration.Id, Calls.Id, Share.Id, Provider.Id, Signed.Id, GraphBar, HookCpu.Id },
            configuration.Columns.Select(c => c.Metadata.Guid).ToList());
        Assert.AreEqual("By Process", configuration.Name);
        CollectionAssert.AreEqual(new[] { configuration }, builder.Configurations.ToList());
    }

    [TestMethod]
    public void Graph_column_comes_from_the_graph_value_role_when_the_view_names_none()
    {
        var table = Table.Empty(Spec(new TableView(["Process", "PID"])));

        var configuration = Build(table).DefaultConfiguration!;

        CollectionAssert.AreEqual(
            new[] { Process.Id, Pid.Id, PivotBar, Start.Id, End.Id, Duration.Id, Calls.Id, Share.Id, Provider.Id, Signed.Id, GraphBar, HookCpu.Id },
            configuration.Columns.Select(c => c.Metadata.Guid).ToList());
        Assert.AreEqual("By Process, PID", configuration.Name);
    }

    [TestMethod]
    public void Table_without_pivots_or_graph_puts_every_column_between_the_bars()
    {
        var configuration = Build(Table.Empty(InfoSpec())).DefaultConfiguration!;

        CollectionAssert.AreEqual(
            new[] { PivotBar, InfoSpec().Columns[0].Id, InfoSpec().Columns[1].Id, GraphBar },
            configuration.Columns.Select(c => c.Metadata.Guid).ToList());
        Assert.AreEqual(0, configuration.ColumnRoles.Count);
        Assert.AreEqual(ChartType.Line, configuration.ChartType);
        Assert.AreEqual("Facts", configuration.Name);
    }

    [TestMethod]
    public void Value_columns_without_empty_cells_keep_their_plain_types()
    {
        var builder = Build(TwoRows());

        Assert.AreEqual(typeof(long), builder.Column("PID").DataType);
        Assert.AreEqual(typeof(double), builder.Column("Hook CPU (ms)").DataType);
        Assert.AreEqual(typeof(Guid), builder.Column("Provider Id").DataType);
        Assert.AreEqual(typeof(bool), builder.Column("Signed").DataType);
        Assert.AreEqual(typeof(string), builder.Column("Process").DataType);
        Assert.AreEqual(1234L, builder.Cell(0, "PID"));
        Assert.AreEqual(1.25, builder.Cell(1, "Hook CPU (ms)"));
        Assert.AreEqual(ProviderA, builder.Cell(1, "Provider Id"));
        Assert.AreEqual(false, builder.Cell(1, "Signed"));
        Assert.AreEqual("svchost.exe", builder.Cell(0, "Process"));
    }

    [TestMethod]
    public void Empty_cells_stay_empty_instead_of_becoming_zero()
    {
        var builder = Build(TwoRows());

        Assert.AreEqual(typeof(long?), builder.Column("Calls").DataType);
        Assert.AreEqual(12L, builder.Cell(0, "Calls"));
        Assert.IsNull(builder.Cell(1, "Calls"));
        Assert.IsNull(builder.Cell(1, "Process"));
    }

    [TestMethod]
    public void Means_maxima_and_sizes_in_time_or_byte_units_show_their_largest_when_rows_collapse()
    {
        // Summing them would show a meaningless total: two syscalls of 3 and 5 µs mean are not 8 µs.
        foreach (var (table, column) in new[]
        {
            (HiddenCost.Analysis.Tables.SyscallHook.SyscallHookTables.Overhead.Spec, "Mean Syscall Time (µs)"),
            (HiddenCost.Analysis.Tables.SyscallHook.SyscallHookTables.Overhead.Spec, "Hook Overhead per Syscall (µs)"),
            (HiddenCost.Analysis.Tables.SpinWait.SpinWaitTables.PerLock.Spec, "Longest Spin (ms)"),
            (HiddenCost.Analysis.Tables.EventLog.EventLogTables.RenderCost.Spec, "CPU per Message (ms)"),
            (HiddenCost.Analysis.Tables.DirectoryNotify.DirectoryNotifyTables.Buffers.Spec, "Mean Bytes per Completion"),
            (HiddenCost.Analysis.Tables.DirectoryNotify.DirectoryNotifyTables.Buffers.Spec, "Buffer (bytes)"),
        })
            Assert.AreEqual(AggregationMode.Max, ColumnConfigurations.Aggregation(table.Columns[table.IndexOf(column)]), column);
        var overhead = HiddenCost.Analysis.Tables.SyscallHook.SyscallHookTables.Overhead.Spec;
        Assert.AreEqual(AggregationMode.Sum, ColumnConfigurations.Aggregation(overhead.Columns[overhead.IndexOf("Total Syscall Time (ms)")]));
    }

    [TestMethod]
    public void Aggregation_follows_unit_and_role()
    {
        var builder = Build(TwoRows());
        AggregationMode Mode(string column) => builder.Column(column).Configuration.DisplayHints.AggregationMode;

        Assert.AreEqual(AggregationMode.Min, Mode("Start"));
        Assert.AreEqual(AggregationMode.Max, Mode("End"));
        Assert.AreEqual(AggregationMode.Sum, Mode("Duration"));
        Assert.AreEqual(AggregationMode.Sum, Mode("Hook CPU (ms)"));
        Assert.AreEqual(AggregationMode.Sum, Mode("Calls"));
        Assert.AreEqual(AggregationMode.Max, Mode("Share (%)"), "shares do not add: a collapsed row shows the largest");
        Assert.AreEqual(AggregationMode.None, Mode("PID"));
        Assert.AreEqual(AggregationMode.None, Mode("Process"));
        Assert.AreEqual(TextAlignment.Right, builder.Column("Calls").Configuration.DisplayHints.TextAlignment);
        Assert.AreEqual(TextAlignment.Left, builder.Column("Process").Configuration.DisplayHints.TextAlignment);
    }

    [TestMethod]
    public void Sort_follows_the_view_in_priority_order()
    {
        var builder = Build(TwoRows());
        UIHints Hints(string column) => builder.Column(column).Configuration.DisplayHints;

        Assert.AreEqual(SortOrder.Descending, Hints("Hook CPU (ms)").SortOrder);
        Assert.AreEqual(0, Hints("Hook CPU (ms)").SortPriority);
        Assert.AreEqual(SortOrder.Descending, Hints("Calls").SortOrder);
        Assert.AreEqual(1, Hints("Calls").SortPriority);
        Assert.AreEqual(SortOrder.None, Hints("PID").SortOrder);
    }

    [TestMethod]
    public void Problems_become_the_description_of_the_default_preset()
    {
        var builder = Build(Table.Empty(Spec()), "x.etl: 0: empty file", "no hook events");

        Assert.AreEqual("x.etl: 0: empty file" + Environment.NewLine + "no hook events", builder.DefaultConfiguration!.Description);
        Assert.IsNull(Build(TwoRows()).DefaultConfiguration!.Description);
    }

    [TestMethod]
    public void Empty_table_builds_every_column_with_zero_rows()
    {
        var builder = Build(Table.Empty(Spec()));

        Assert.AreEqual(0, builder.RowCount);
        Assert.AreEqual(10, builder.Columns.Count);
        Assert.AreEqual(typeof(long), builder.Column("Calls").DataType);
    }

    [TestMethod]
    public void Every_cell_of_a_built_table_projects()
    {
        var builder = Build(TwoRows());

        Assert.AreEqual(20, builder.ProjectEveryCell());
    }

    [TestMethod]
    public void View_naming_a_missing_column_fails_naming_table_and_column()
    {
        var table = Table.Empty(Spec(new TableView(["Image"])));

        var error = Assert.ThrowsExactly<ArgumentException>(() => Build(table));

        StringAssert.Contains(error.Message, "table 'Hook Cost' has no column 'Image'");
    }
}
