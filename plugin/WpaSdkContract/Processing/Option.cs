using System;

namespace Microsoft.Performance.SDK.Processing
{
    /// <summary>An option a processing source declares; the host lists it and hands the ones set to the processor.</summary>
    public class Option
    {
        public Option(object id, string name)
            : this(id, name, 0, 0)
        {
        }

        public Option(object id, string name, int minParam, int maxParam)
        {
            this.Id = id ?? throw new ArgumentNullException(nameof(id));
            this.Name = name ?? throw new ArgumentNullException(nameof(name));
            this.MinimumParameterCount = minParam;
            this.MaximumParameterCount = maxParam;
        }

        public object Id { get; }

        public string Name { get; }

        public string Description { get; set; }

        public bool IsDeprecated { get; set; }

        public int MinimumParameterCount { get; }

        public int MaximumParameterCount { get; }

        public override string ToString() => this.Name;
    }
}
