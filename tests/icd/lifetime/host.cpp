// A C++ host of static_objects: the library's static destructor runs after main returns.
#include <cstdio>

extern "C" int static_objects_run(void);

int main() {
    int failed = static_objects_run();
    std::printf("static_objects: %s\n", failed ? "FAIL" : "PASS");
    return failed;
}
