using System;
using System.Collections.Generic;

namespace Microsoft.Performance.SDK.Processing
{
    public static class Projection
    {
        public static IProjection<int, T> Index<T>(IReadOnlyList<T> data)
        {
            return new IndexProjection<T>(data ?? throw new ArgumentNullException(nameof(data)));
        }

        private sealed class IndexProjection<T> : IProjection<int, T>
        {
            private readonly IReadOnlyList<T> data;

            public IndexProjection(IReadOnlyList<T> data)
            {
                this.data = data;
            }

            public T this[int value] => this.data[value];
        }
    }
}
