#!/bin/sh
# Install Intel's OpenCL CPU runtime into a virtual environment, for `loomcl bench`'s Intel column.
#
#   scripts/install_intel_opencl.sh [VENV] [VERSION]
#
# VENV defaults to ~/.local/share/loomcl/intel-opencl; VERSION to the newest on PyPI. intel-opencl-rt
# needs intel-cmplr-lib-rt of the same version. The script writes VENV/intel.icd, an ICD vendor file
# naming VENV/lib/libintelocl.so; `loomcl bench` finds it there (or wherever LOOMCL_INTEL_ICD names)
# and lists Intel beside PoCL. Nothing outside VENV is touched.
set -eu
VENV=${1:-$HOME/.local/share/loomcl/intel-opencl}
VERSION=${2:-}
python3 -m venv "$VENV"
if [ -z "$VERSION" ]; then
  VERSION=$("$VENV/bin/pip" index versions intel-opencl-rt 2>/dev/null | sed -n 's/^intel-opencl-rt (\(.*\))$/\1/p')
fi
"$VENV/bin/pip" install --quiet "intel-opencl-rt==$VERSION" "intel-cmplr-lib-rt==$VERSION"
LIB="$VENV/lib/libintelocl.so"
[ -e "$LIB" ] || LIB=$(find "$VENV" -name libintelocl.so | head -n 1)
[ -n "$LIB" ] && [ -e "$LIB" ] || { echo "libintelocl.so not found under $VENV" >&2; exit 1; }
echo "$LIB" > "$VENV/intel.icd"
echo "Intel OpenCL $VERSION: $VENV/intel.icd names $LIB"
