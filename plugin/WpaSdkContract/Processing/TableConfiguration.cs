using System;
using System.Collections.Generic;
using System.Collections.ObjectModel;
using System.Linq;

namespace Microsoft.Performance.SDK.Processing
{
    /// <summary>
    /// A preset: the column order (with the pivot and graph bars as marker columns whose GUIDs the host
    /// recognises), the chart and the column roles.
    /// </summary>
    public class TableConfiguration
    {
        public static readonly ColumnConfiguration PivotColumn = Marker("{319E867F-245A-436E-9735-DB620F844EDC}", "Pivot Column");

        public static readonly ColumnConfiguration GraphColumn = Marker("{A5CE8FAF-5668-49FC-82BC-D2C482086C06}", "Graph Column");

        public static readonly ColumnConfiguration LeftFreezeColumn = Marker("{4D35A44E-804B-454E-9375-568543E198C2}", "Left Freeze Column");

        public static readonly ColumnConfiguration RightFreezeColumn = Marker("{A755CEC5-BBC4-4E9F-BDB3-CB78B56DDCFA}", "Right Freeze Column");

        private readonly Dictionary<string, Guid> columnRoles = new Dictionary<string, Guid>();
        private IReadOnlyList<ColumnConfiguration> columns = Array.Empty<ColumnConfiguration>();

        public TableConfiguration(string name)
        {
            this.Name = name;
            this.ColumnRoles = new ReadOnlyDictionary<string, Guid>(this.columnRoles);
        }

        public string Name { get; set; }

        public string Description { get; set; }

        public ChartType ChartType { get; set; }

        public IReadOnlyDictionary<string, Guid> ColumnRoles { get; }

        public IEnumerable<ColumnConfiguration> Columns
        {
            get => this.columns;
            set
            {
                var list = (value ?? Enumerable.Empty<ColumnConfiguration>()).ToList();
                RequireBarOrder(list);
                this.columns = list.AsReadOnly();
            }
        }

        public void AddColumnRole(string columnRole, ColumnConfiguration column)
        {
            if (column == null)
            {
                throw new ArgumentNullException(nameof(column));
            }

            this.AddColumnRole(columnRole, column.Metadata.Guid);
        }

        public void AddColumnRole(string columnRole, Guid columnGuid)
        {
            if (IsMarker(columnGuid))
            {
                throw new InvalidOperationException("Metadata columns may not be assigned a role.");
            }

            this.columnRoles[columnRole] = columnGuid;
        }

        private static ColumnConfiguration Marker(string guid, string name) => new ColumnConfiguration(new ColumnMetadata(Guid.Parse(guid), name));

        private static bool IsMarker(Guid guid) =>
            guid == PivotColumn.Metadata.Guid || guid == GraphColumn.Metadata.Guid
            || guid == LeftFreezeColumn.Metadata.Guid || guid == RightFreezeColumn.Metadata.Guid;

        // The SDK rejects a configuration whose bars repeat or whose pivot bar follows the graph bar; so does the contract.
        private static void RequireBarOrder(IReadOnlyList<ColumnConfiguration> list)
        {
            int Position(ColumnConfiguration marker)
            {
                var positions = list.Select((column, index) => (column, index))
                    .Where(entry => entry.column.Metadata.Guid == marker.Metadata.Guid)
                    .Select(entry => entry.index)
                    .ToList();
                if (positions.Count > 1)
                {
                    throw new InvalidOperationException($"The {marker.Metadata.Name} can only be added at most once.");
                }

                return positions.Count == 1 ? positions[0] : -1;
            }

            int pivot = Position(PivotColumn);
            int graph = Position(GraphColumn);
            int left = Position(LeftFreezeColumn);
            int right = Position(RightFreezeColumn);
            if (pivot >= 0 && graph >= 0 && pivot > graph)
            {
                throw new InvalidOperationException("The pivot column cannot appear after the graphing column.");
            }

            if (left >= 0 && right >= 0 && left > right)
            {
                throw new InvalidOperationException("The left freeze column cannot appear after the right freeze column.");
            }
        }
    }
}
