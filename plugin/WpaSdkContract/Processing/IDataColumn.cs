using System;

namespace Microsoft.Performance.SDK.Processing
{
    /// <summary>A column as the host reads it: its configuration, its cell type and a row-to-cell projection.</summary>
    public interface IDataColumn
    {
        ColumnConfiguration Configuration { get; }

        Type DataType { get; }

        object Project(int index);
    }
}
