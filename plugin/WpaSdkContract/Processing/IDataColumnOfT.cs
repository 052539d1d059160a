namespace Microsoft.Performance.SDK.Processing
{
    public interface IDataColumn<T> : IDataColumn
    {
        IProjection<int, T> Projector { get; }

        T ProjectTyped(int index);
    }
}
