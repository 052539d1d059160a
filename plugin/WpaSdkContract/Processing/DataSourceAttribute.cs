using System;

namespace Microsoft.Performance.SDK.Processing
{
    /// <summary>Declares a kind of data source a processing source accepts; the host routes data sources by it.</summary>
    [AttributeUsage(AttributeTargets.Class, AllowMultiple = true, Inherited = true)]
    public abstract class DataSourceAttribute : Attribute
    {
        protected DataSourceAttribute(Type type, string description)
        {
            this.Type = type ?? throw new ArgumentNullException(nameof(type));
            this.Description = description ?? throw new ArgumentNullException(nameof(description));
        }

        public Type Type { get; }

        public string Description { get; }

        public bool Accepts(IDataSource dataSource)
        {
            return dataSource != null
                && this.Type.IsInstanceOfType(dataSource)
                && this.AcceptsCore(dataSource);
        }

        protected virtual bool AcceptsCore(IDataSource dataSource) => true;
    }
}
