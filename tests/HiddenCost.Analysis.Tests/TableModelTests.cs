using HiddenCost.Analysis;
using HiddenCost.Analysis.Model;

namespace HiddenCost.Analysis.Tests;

[TestClass]
public sealed class TableModelTests
{
    [TestMethod]
    public void Column_guids_are_name_based_and_pinned()
    {
        // Presets and scripts refer to these: the derivation must never change.
        var table = new Guid("6d0e7a41-2f0b-4c55-9a53-1c3f1e1a0002");
        Assert.AreEqual(StableIds.Column(table, "Count"), StableIds.Column(table, "Count"));
        Assert.AreNotEqual(StableIds.Column(table, "Count"), StableIds.Column(table, "With Stack"));
        Assert.AreEqual(5, StableIds.Column(table, "Count").ToByteArray(bigEndian: true)[6] >> 4, "RFC 4122 version 5");
        Assert.AreEqual(PinnedEventCountsCountColumn, StableIds.Column(table, "Count"));
    }

    // RFC 4122 uuid5(table GUID, "Count"), as Python's uuid.uuid5 computes it: an independent check of the
    // derivation. A failure here means every preset naming a column breaks.
    private static readonly Guid PinnedEventCountsCountColumn = new("0e14401f-f2d5-5639-95c6-4be64f097cff");

    [TestMethod]
    public void Every_table_and_column_guid_is_unique()
    {
        var tableIds = TableCatalog.All.Select(t => t.Id).ToArray();
        Assert.AreEqual(tableIds.Length, tableIds.Distinct().Count());
        var columnIds = TableCatalog.All.SelectMany(t => t.Columns).Select(c => c.Id).ToArray();
        Assert.AreEqual(columnIds.Length, columnIds.Distinct().Count());
    }

    private sealed record TwoNumbers(long Count, double? Share);

    [TestMethod]
    public void A_column_read_as_another_type_than_its_column_type_is_refused()
    {
        var builder = new TableDefinitionBuilder<TwoNumbers>(Guid.NewGuid(), "T", "d");
        Assert.ThrowsExactly<ArgumentException>(() => builder.Column("A", ColumnType.Decimal, r => r.Count));
        Assert.ThrowsExactly<ArgumentException>(() => builder.Column("B", ColumnType.Integer, r => r.Share));
        Assert.ThrowsExactly<ArgumentException>(() => builder.Column("C", ColumnType.Text, r => r.Count));
    }

    [TestMethod]
    public void Cells_are_read_through_each_column_typed_and_boxed_as_their_column_type()
    {
        var definition = new TableDefinitionBuilder<TwoNumbers>(Guid.NewGuid(), "T", "d")
            .Column("Count", ColumnType.Integer, r => r.Count, ColumnUnit.Count)
            .Column("Share", ColumnType.Decimal, r => r.Share, ColumnUnit.Percent)
            .Build(new TableView(Array.Empty<string>()));
        var table = definition.Table([new TwoNumbers(3, 12.5), new TwoNumbers(4, null)]);
        Assert.AreEqual(2, table.RowCount);
        Assert.AreEqual(4L, ((TableColumn<long?>)table.Columns[0])[1]);
        Assert.AreEqual(12.5, ((TableColumn<double?>)table.Columns[1])[0]);
        Assert.IsInstanceOfType<long>(table.Value(0, 0));
        Assert.IsNull(table.Value(1, 1));
        Assert.IsFalse(table.Columns[0].HasEmptyCells);
        Assert.IsTrue(table.Columns[1].HasEmptyCells);
        Assert.AreSame(table.Rows[1], ((Table<TwoNumbers>)table).Rows[1]);
    }

    [TestMethod]
    public void Time_columns_carry_time_roles()
    {
        foreach (var spec in TableCatalog.All)
            foreach (var c in spec.Columns)
            {
                if (c.Role is ColumnRole.StartTime or ColumnRole.EndTime)
                    Assert.AreEqual(ColumnType.Timestamp, c.Type, $"{spec.Name}/{c.Name}");
                if (c.Role is ColumnRole.Duration)
                    Assert.AreEqual(ColumnType.Duration, c.Type, $"{spec.Name}/{c.Name}");
            }
    }
}
