"""Semantic rules of images and samplers (OpenCL C 1.2 6.1.3, 6.9.a-c, 6.12.14).

Images are handles that exist only as function parameters: never variables, struct members,
array elements or return values, never assigned or compared (their operators are rejected where
sema_expr checks arithmetic). Samplers are kernel parameters, `const sampler_t` variables at
program or function scope initialized with an integer constant expression (the CLK_* flags), or
function parameters; a sampler variable has no storage: its references become the folded bits
(`VarDecl.sampler_bits`), so most image reads see a constant sampler.

The image builtins (6.12.14.2-5) are resolved here rather than from builtins.py's rows: their
overloads depend on the image type, its access qualifier and the coordinates' type, and each
mistake gets its own message. A call becomes a `BuiltinCall` whose first argument is the image,
then the sampler (or none), the coordinates (int or float lanes) and, for writes, the color.
"""
from __future__ import annotations

from . import ast as A
from . import types as T
from .builtins import Builtin, Overload
from .constfold import fold_int

B = Builtin
# name -> (builtin, element type of the color)
READS = {"read_imagef": (B.READ_IMAGEF, T.FLOAT), "read_imagei": (B.READ_IMAGEI, T.INT),
         "read_imageui": (B.READ_IMAGEUI, T.UINT)}
WRITES = {"write_imagef": (B.WRITE_IMAGEF, T.FLOAT), "write_imagei": (B.WRITE_IMAGEI, T.INT),
          "write_imageui": (B.WRITE_IMAGEUI, T.UINT)}
_ALL = frozenset(T.IMAGE_TYPE_NAMES)
_TWO_D = frozenset(("image2d_t", "image2d_array_t", "image3d_t"))
_ARRAYS = frozenset(("image1d_array_t", "image2d_array_t"))
# name -> (builtin, the image types it applies to, result type or None for get_image_dim's)
QUERIES = {
    "get_image_width": (B.IMAGE_WIDTH, _ALL, T.INT),
    "get_image_height": (B.IMAGE_HEIGHT, _TWO_D, T.INT),
    "get_image_depth": (B.IMAGE_DEPTH, frozenset(("image3d_t",)), T.INT),
    "get_image_array_size": (B.IMAGE_ARRAY_SIZE, _ARRAYS, T.SIZE_T),
    "get_image_dim": (B.IMAGE_DIM, _TWO_D, None),
    "get_image_channel_data_type": (B.IMAGE_CHANNEL_DATA_TYPE, _ALL, T.INT),
    "get_image_channel_order": (B.IMAGE_CHANNEL_ORDER, _ALL, T.INT),
}
IMAGE_FUNCTIONS = frozenset(READS) | frozenset(WRITES) | frozenset(QUERIES)

# coordinate lanes per image type: x (y) (z or layer); a 2D array's and a 3D image's fourth is ignored
COORDINATE_LANES = {"image1d_t": 1, "image1d_buffer_t": 1, "image1d_array_t": 2, "image2d_t": 2,
                    "image2d_array_t": 4, "image3d_t": 4}

SAMPLER_BITS = 0x3F  # abi/image.py: normalized (1), addressing (3 bits), filter (2 bits)


def _vector(element: T.Type, lanes: int) -> T.Type:
    return element if lanes == 1 else T.vector_of(element, lanes)


class ImageChecker:
    """Mixin for Sema: needs diags, rvalue, convert, error."""

    # ---- declarations -------------------------------------------------------------------------
    def refuse_image_container(self, t: T.Type, loc) -> bool:
        """Arrays of and pointers to images or samplers (6.9.b); True if reported."""
        inner = t.element if t.is_array else t.pointee if t.is_pointer else None
        if inner is None or not (inner.is_image or inner.is_sampler):
            return False
        what = f"array of '{inner.unqualified()}' type" if t.is_array else \
            f"pointer to type '{inner.unqualified()}'"
        self.diags.error(loc, f"{what} is invalid in OpenCL")
        return True

    def image_variable(self, d: A.VarDecl, program_scope: bool) -> bool:
        """Checks a variable of image or sampler type; True if d is one (and fully handled)."""
        if d.type.is_image:
            self.diags.error(d.loc, f"type '{d.type.unqualified()}' can only be used as a function "
                                    f"parameter in OpenCL")
            d.type = T.ERROR
            return True
        if not d.type.is_sampler:
            return False
        constant = d.type.quals.const or d.type.address_space is T.AddressSpace.CONSTANT
        if not program_scope and not constant:
            self.diags.error(d.loc, "a function scope variable of type 'sampler_t' must be declared "
                                    "const (with a constant initializer)")
        if d.init is None:
            self.diags.error(d.loc, "variable of type 'sampler_t' must be initialized")
        else:
            d.sampler_bits = self.sampler_constant(self.rvalue(d.init))
        d.init = None
        return True

    def sampler_constant(self, e: A.Expr) -> int:
        """The bits of a sampler initializer (an integer constant expression or another constant
        sampler); 0 after an error."""
        if e.type.is_error:
            return 0
        value = e.value if isinstance(e, A.IntLiteral) and e.type.is_sampler else fold_int(e)
        if value is None:
            self.diags.error(e.loc, "sampler initializer is not an integer constant expression")
            return 0
        if value & ~SAMPLER_BITS or (value >> 1) & 7 > 4 or (value >> 4) & 3 == 3:
            self.diags.error(e.loc, f"invalid sampler value 0x{value:x} (combine one "
                                    f"CLK_NORMALIZED_COORDS_*, one CLK_ADDRESS_* and one CLK_FILTER_*)")
            return 0
        return value

    # ---- builtin calls ------------------------------------------------------------------------
    def image_call(self, e: A.Call, name: str, args: list[A.Expr]) -> A.Expr:
        if any(a.type.is_error for a in args):
            e.type, e.lvalue = T.ERROR, False
            return e
        if not args or not args[0].type.is_image:
            have = f"'{args[0].type}'" if args else "no arguments"
            return self.error(e, f"the first argument of '{name}' must be an image (have {have})")
        if name in QUERIES:
            return self.image_query(e, name, args)
        if name in READS:
            return self.image_read(e, name, args)
        return self.image_write(e, name, args)

    def image_query(self, e: A.Call, name: str, args: list[A.Expr]) -> A.Expr:
        builtin, applies, result = QUERIES[name]
        image = args[0].type.unqualified()
        if len(args) != 1:
            return self.error(e, f"'{name}' takes one argument, not {len(args)}")
        if image.name not in applies:
            return self.error(e, f"'{name}' does not apply to an '{image.name}' image")
        if result is None:
            result = T.vector_of(T.INT, 4 if image.name == "image3d_t" else 2)
        return _call(e, name, builtin, result, args)

    def image_read(self, e: A.Call, name: str, args: list[A.Expr]) -> A.Expr:
        builtin, element = READS[name]
        image = args[0].type.unqualified()
        if image.access != "read_only":
            return self.error(e, f"'{name}' reads an image, but '{args[0].type}' is write_only")
        if len(args) not in (2, 3):
            return self.error(e, f"'{name}' takes an image, an optional sampler and coordinates, not "
                                 f"{len(args)} arguments")
        if len(args) == 3:
            if image.name == "image1d_buffer_t":
                return self.error(e, f"'{name}' with a sampler does not apply to an 'image1d_buffer_t' image")
            args[1] = self.sampler_argument(args[1])
        coordinates = self.image_coordinates(args[-1], name, image, allow_float=len(args) == 3)
        if coordinates is None:
            return _poisoned(e)
        args[-1] = coordinates
        return _call(e, name, builtin, T.vector_of(element, 4), args)

    def image_write(self, e: A.Call, name: str, args: list[A.Expr]) -> A.Expr:
        builtin, element = WRITES[name]
        image = args[0].type.unqualified()
        if image.access != "write_only":
            return self.error(e, f"'{name}' writes an image, but '{args[0].type}' is read_only")
        if len(args) != 3:
            return self.error(e, f"'{name}' takes an image, coordinates and a color, not {len(args)} arguments")
        coordinates = self.image_coordinates(args[1], name, image, allow_float=False)
        color_type = T.vector_of(element, 4)
        if args[2].type.unqualified() != color_type:
            return self.error(args[2], f"the color written by '{name}' must be '{color_type}' "
                                       f"(have '{args[2].type}')")
        if coordinates is None:
            return _poisoned(e)
        args[1] = coordinates
        return _call(e, name, builtin, T.VOID, args)

    def sampler_argument(self, arg: A.Expr) -> A.Expr:
        if arg.type.is_sampler:
            return arg
        if arg.type.is_integer:
            return A.IntLiteral(arg.loc, self.sampler_constant(arg), type=T.SAMPLER)
        return self.error(arg, f"the sampler argument must be a 'sampler_t' (have '{arg.type}')")

    def image_coordinates(self, arg: A.Expr, name: str, image: T.ImageType, allow_float: bool) -> A.Expr | None:
        """arg as int or float coordinates for `image` (scalars convert), or None when reported."""
        lanes = COORDINATE_LANES[image.name]
        t = arg.type.unqualified()
        if arg.type.is_error:
            return None
        if lanes == 1 and (t.is_integer or (allow_float and t.is_floating)):
            return self.convert(arg, T.INT if t.is_integer else T.FLOAT)
        elements = (T.INT, T.FLOAT) if allow_float else (T.INT,)
        if t.is_vector and t.count == lanes and t.element in elements:
            return arg
        wanted = " or ".join(f"'{_vector(x, lanes)}'" for x in elements)
        self.error(arg, f"the coordinates of '{name}' on an '{image.name}' image must be {wanted} "
                        f"(have '{arg.type}')")
        return None


def _call(e: A.Call, name: str, builtin: Builtin, result: T.Type, args: list[A.Expr]) -> A.BuiltinCall:
    overload = Overload(name, builtin, result, tuple(a.type.unqualified() for a in args))
    return A.BuiltinCall(e.loc, builtin, overload, args, type=result)


def _poisoned(e: A.Expr) -> A.Expr:
    e.type, e.lvalue = T.ERROR, False
    return e
