using System;
using System.Collections.Generic;
using Microsoft.Performance.SDK.Extensibility;

namespace Microsoft.Performance.SDK.Processing
{
    /// <summary>A table's identity as the host knows it before any data is processed; equal by GUID.</summary>
    public sealed class TableDescriptor : IEquatable<TableDescriptor>
    {
        public const string DefaultCategory = "Other";

        public const TableLayoutStyle DefaultLayoutStyle = TableLayoutStyle.GraphAndTable;

        public TableDescriptor(
            Guid guid,
            string name,
            string description,
            string category = DefaultCategory,
            bool isMetadataTable = false,
            TableLayoutStyle defaultLayout = TableLayoutStyle.GraphAndTable,
            IEnumerable<DataCookerPath> requiredDataCookers = null)
        {
            if (guid == Guid.Empty)
            {
                throw new ArgumentException("A table GUID may not be empty.", nameof(guid));
            }

            RequireText(name, nameof(name));
            RequireText(description, nameof(description));
            RequireText(category, nameof(category));

            this.Guid = guid;
            this.Name = name;
            this.Description = description;
            this.Category = category;
            this.IsMetadataTable = isMetadataTable;
            this.DefaultLayout = defaultLayout;
            this.ExtendedData = new Dictionary<string, object>();
        }

        public Guid Guid { get; }

        public string Name { get; }

        public string Description { get; }

        public string Category { get; }

        public bool IsMetadataTable { get; }

        public TableLayoutStyle DefaultLayout { get; }

        public IDictionary<string, object> ExtendedData { get; }

        public Type Type { get; set; }

        public bool Equals(TableDescriptor other) => other != null && this.Guid == other.Guid;

        public override bool Equals(object obj) => this.Equals(obj as TableDescriptor);

        public override int GetHashCode() => this.Guid.GetHashCode();

        public override string ToString() => $"{this.Guid} - {this.Name}";

        private static void RequireText(string value, string parameterName)
        {
            if (string.IsNullOrWhiteSpace(value))
            {
                throw new ArgumentException("A non-blank value is required.", parameterName);
            }
        }
    }
}
