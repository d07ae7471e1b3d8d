"""loomcl as an OpenCL platform: the ICD library (native/) that OpenCL ICD loaders open, and the C API
behind its dispatch table (api_*.py), thin adapters over loomcl.runtime's objects.

`python -m loomcl icd` builds the library (build.py) and prints the vendor file to point
OCL_ICD_VENDORS at; entry.py is where the library enters Python.
"""
