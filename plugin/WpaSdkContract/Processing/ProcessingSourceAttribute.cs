using System;

namespace Microsoft.Performance.SDK.Processing
{
    /// <summary>Marks the class the host instantiates as a processing source; the name is what <c>wpa -processors</c> takes.</summary>
    [AttributeUsage(AttributeTargets.Class, AllowMultiple = false, Inherited = false)]
    public sealed class ProcessingSourceAttribute : Attribute
    {
        public ProcessingSourceAttribute(string guid, string name, string description)
        {
            this.Guid = System.Guid.Parse(guid);
            this.Name = name ?? throw new ArgumentNullException(nameof(name));
            this.Description = description ?? throw new ArgumentNullException(nameof(description));
        }

        public Guid Guid { get; }

        public string Name { get; }

        public string Description { get; }
    }
}
