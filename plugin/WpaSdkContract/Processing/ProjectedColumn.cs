using System;

namespace Microsoft.Performance.SDK.Processing
{
    /// <summary>The column <see cref="TableBuilderExtensions.AddColumn{T}"/> adds (the SDK's is DataColumn&lt;T&gt;).</summary>
    internal sealed class ProjectedColumn<T> : IDataColumn<T>
    {
        public ProjectedColumn(ColumnConfiguration configuration, IProjection<int, T> projection)
        {
            this.Configuration = configuration ?? throw new ArgumentNullException(nameof(configuration));
            this.Projector = projection ?? throw new ArgumentNullException(nameof(projection));
        }

        public ColumnConfiguration Configuration { get; }

        public Type DataType => typeof(T);

        public IProjection<int, T> Projector { get; }

        public object Project(int index) => this.Projector[index];

        public T ProjectTyped(int index) => this.Projector[index];
    }
}
