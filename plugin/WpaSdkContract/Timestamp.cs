using System;
using System.Globalization;

namespace Microsoft.Performance.SDK
{
    /// <summary>A point in time, in nanoseconds relative to the start of the data source.</summary>
    public readonly struct Timestamp : IEquatable<Timestamp>, IComparable<Timestamp>
    {
        public Timestamp(long nanoseconds)
        {
            this.ToNanoseconds = nanoseconds;
        }

        public static Timestamp Zero => new Timestamp(0);

        public long ToNanoseconds { get; }

        public static Timestamp FromNanoseconds(long nanoseconds) => new Timestamp(nanoseconds);

        public static bool operator ==(Timestamp first, Timestamp second) => first.Equals(second);

        public static bool operator !=(Timestamp first, Timestamp second) => !first.Equals(second);

        public bool Equals(Timestamp other) => this.ToNanoseconds == other.ToNanoseconds;

        public override bool Equals(object other) => other is Timestamp timestamp && this.Equals(timestamp);

        public override int GetHashCode() => this.ToNanoseconds.GetHashCode();

        public int CompareTo(Timestamp other) => this.ToNanoseconds.CompareTo(other.ToNanoseconds);

        public override string ToString() => this.ToNanoseconds.ToString(CultureInfo.InvariantCulture) + "ns";
    }
}
