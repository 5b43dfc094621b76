"""C# definition extraction."""

from codesift.parse import extract_chunks

SOURCE = """\
using System;
using Microsoft.AspNetCore.Mvc;

namespace Shop.Api;

/// <summary>
/// Order endpoints.
/// </summary>
[ApiController]
[Route("api/[controller]")]
public class OrdersController : ControllerBase
{
    public int Count { get; set; }

    /// <summary>Gets one order.</summary>
    [HttpGet("{id}")]
    public async Task<Order> Get(int id)
    {
        return await _repo.Find(id);
    }

    [HttpPost]
    public IActionResult Create([FromBody] Order order) => Ok(order);

    public OrdersController(IRepo repo) { _repo = repo; }

    private struct Cursor { public int Pos; }
}

public interface IRepo
{
    Task<Order> Find(int id);
}

public enum OrderState { Open, Closed }

public record Order(int Id, string Name);
"""


def test_csharp_definitions():
    chunks = extract_chunks(SOURCE, "c_sharp", "Api/OrdersController.cs")
    defs = {c.qualified_name: c for c in chunks if c.kind != "module"}
    got = {q: (c.kind, c.start_line, c.end_line, c.parent) for q, c in defs.items()}
    # auto-properties are not definitions; namespaces do not prefix qualified names
    assert got == {
        "OrdersController": ("class", 11, 28, None),
        "OrdersController.Get": ("method", 17, 20, "OrdersController"),
        "OrdersController.Create": ("method", 23, 23, "OrdersController"),
        "OrdersController.OrdersController": ("method", 25, 25, "OrdersController"),
        "OrdersController.Cursor": ("struct", 27, 27, "OrdersController"),
        "IRepo": ("interface", 30, 33, None),
        "IRepo.Find": ("method", 32, 32, "IRepo"),
        "OrderState": ("enum", 35, 35, None),
        "Order": ("class", 37, 37, None),
    }
    ctrl = defs["OrdersController"]
    assert ctrl.decorators == ["[ApiController]", '[Route("api/[controller]")]']
    assert ctrl.docstring == "Order endpoints."
    assert ctrl.signature == "public class OrdersController : ControllerBase"
    get = defs["OrdersController.Get"]
    assert get.signature == "public async Task<Order> Get(int id)"
    assert get.docstring == "Gets one order."
    assert get.decorators == ['[HttpGet("{id}")]']
    assert get.text.lstrip().startswith('[HttpGet("{id}")]')
    assert get.route == "GET /api/[controller]/{id}"
    assert defs["OrdersController.Create"].route == "POST /api/[controller]"
    assert defs["OrdersController.Create"].signature == (
        "public IActionResult Create([FromBody] Order order)"
    )


STRUCTURE = """\
namespace Polly.Retry;

#pragma warning disable S1694
public abstract partial class RetryHelper : IDisposable
#pragma warning restore S1694
{
    /// <summary>Gets or sets the delay.</summary>
    public TimeSpan Delay { get; set; } = TimeSpan.Zero;

    /// <summary>Whether the last attempt was made.</summary>
    public bool IsLast => _attempt >= MaxAttempts;

    public string Name { get { return _name; } set { _name = value; } }

    void IDisposable.Dispose() { }

#if NET6_0_OR_GREATER
    public void OnlyNet6() { }
#else
    public void Older() { }
#endif

    private sealed record Entry(int X);
}

public readonly record struct Attempt(int Number);
"""


def test_csharp_properties_records_and_conditional_blocks():
    chunks = extract_chunks(STRUCTURE, "c_sharp", "Retry/RetryHelper.cs")
    defs = {c.qualified_name: c for c in chunks if c.kind != "module"}
    got = {q: (c.kind, c.start_line, c.parent) for q, c in defs.items()}
    assert got == {
        "RetryHelper": ("class", 4, None),
        # a property that runs code is a method; an auto-property (Delay) stays part of its class
        "RetryHelper.IsLast": ("method", 11, "RetryHelper"),
        "RetryHelper.Name": ("method", 13, "RetryHelper"),
        "RetryHelper.Dispose": ("method", 15, "RetryHelper"),  # explicit interface implementation
        "RetryHelper.OnlyNet6": ("method", 18, "RetryHelper"),  # both sides of an #if
        "RetryHelper.Older": ("method", 20, "RetryHelper"),
        "RetryHelper.Entry": ("class", 23, "RetryHelper"),
        "Attempt": ("struct", 26, None),  # a record struct is a struct
    }
    assert defs["RetryHelper"].signature == "public abstract partial class RetryHelper : IDisposable"
    assert defs["RetryHelper.IsLast"].signature == "public bool IsLast"
    assert defs["RetryHelper.IsLast"].docstring == "Whether the last attempt was made."


CONDITIONAL_BASES = """\
namespace Json.Linq
{
    public abstract class JToken : IJEnumerable<JToken>
#if !(PORTABLE)
        , ICloneable
#endif
    {
        /// <summary>Returns the sibling tokens after this one.</summary>
        public IEnumerable<JToken> AfterSelf()
        {
            for (JToken o = Next; o != null; o = o.Next)
                yield return o;
        }

        /// <summary>Reads a token as a boolean.</summary>
        public static explicit operator bool(JToken value)
        {
            return Convert.ToBoolean(value.Value);
        }

        public static JToken operator +(JToken a, JToken b) => a.Add(b);

        public JToken this[object key] { get { return Find(key); } set { Put(key, value); } }

#if NET20
        public static JToken Parse(string json, int depth)
        {
#else
        public static JToken Parse(string json, long depth)
        {
#endif
            return Load(json);
        }
    }
}
"""


def test_csharp_conditional_directives_inside_a_declaration_and_operators():
    # an #if in a base list and one splitting a method's header left the class unparsed: its members came out as
    # loose functions with no parent, its operators as module code
    chunks = extract_chunks(CONDITIONAL_BASES, "c_sharp", "Linq/JToken.cs")
    got = {(c.kind, c.qualified_name, c.start_line) for c in chunks if c.kind != "module"}
    assert got == {
        ("class", "JToken", 3),
        ("method", "JToken.AfterSelf", 9),
        ("method", "JToken.operator bool", 16),
        ("method", "JToken.operator+", 21),
        ("method", "JToken.this[]", 23),  # an indexer whose accessors run code
        ("method", "JToken.Parse", 26),
    }
    parse = next(c for c in chunks if c.name == "Parse")
    assert parse.end_line == 33 and "long depth" in parse.text  # the chunk's text is the file's, both branches
    op = next(c for c in chunks if c.name == "operator bool")
    assert op.docstring == "Reads a token as a boolean."
    assert op.signature == "public static explicit operator bool(JToken value)"
