using System.Collections;
using System.Collections.Generic;

namespace Microsoft.Performance.SDK
{
    /// <summary>A read-only view over a <see cref="HashSet{T}"/> that follows the set's changes.</summary>
    public sealed class ReadOnlyHashSet<T> : IReadOnlyCollection<T>
    {
        private readonly HashSet<T> source;

        public ReadOnlyHashSet(HashSet<T> source)
        {
            this.source = source ?? throw new System.ArgumentNullException(nameof(source));
        }

        public int Count => this.source.Count;

        public bool Contains(T item) => this.source.Contains(item);

        public IEnumerator<T> GetEnumerator() => this.source.GetEnumerator();

        IEnumerator IEnumerable.GetEnumerator() => this.GetEnumerator();
    }
}
