// Proves: the Clang front names the allocated type in the site descriptor for each C form the source says it in — malloc(sizeof(T)), malloc(sizeof *p), malloc(n * sizeof(T)) (T[]), calloc(n, sizeof(T)) (T[], T when n is 1), an explicit cast (T *)malloc(n), an implicit conversion to T *, realloc of a T *, posix_memalign into a T *, a typedef by its name, through a macro — and that a call whose source says nothing (void *, free) keeps a null type; without -fplugin's front (-fpass-plugin= alone) no site has a type (the clean case).
// RUN: %clang -fplugin=%mdebugpass -Rpass=mdebug -O0 -S -emit-llvm %s -o - | %FileCheck %s
// RUN: %clang -fplugin=%mdebugpass -g -O2 -S -emit-llvm %s -o - | %FileCheck %s
// RUN: %clang -fpass-plugin=%mdebugpass -Rpass=mdebug -O0 -S -emit-llvm %s -o - | %FileCheck %s --check-prefix=NOFRONT
#include <stdlib.h>

struct node {
  struct node *next;
  int value;
};
typedef struct {
  double x, y;
} point_t;
#define NEW(T) ((T *)malloc(sizeof(T)))

// Each site's descriptor ends with its line, column, op, flags and type;
// names are matched by the string they point to.
// CHECK-DAG: @[[NODE:__mdebug_str[.0-9]*]] = private unnamed_addr constant [12 x i8] c"struct node\00"
// CHECK-DAG: @[[NODES:__mdebug_str[.0-9]*]] = private unnamed_addr constant [14 x i8] c"struct node[]\00"
// CHECK-DAG: @[[LONGS:__mdebug_str[.0-9]*]] = private unnamed_addr constant [7 x i8] c"long[]\00"
// CHECK-DAG: @[[CHAR:__mdebug_str[.0-9]*]] = private unnamed_addr constant [5 x i8] c"char\00"
// CHECK-DAG: @[[POINT:__mdebug_str[.0-9]*]] = private unnamed_addr constant [8 x i8] c"point_t\00"
// CHECK-DAG: @[[INT:__mdebug_str[.0-9]*]] = private unnamed_addr constant [4 x i8] c"int\00"
// CHECK-DAG: @[[SHORT:__mdebug_str[.0-9]*]] = private unnamed_addr constant [6 x i8] c"short\00"
void *forms(size_t n) {
  struct node *a = malloc(sizeof(struct node));
  // CHECK-DAG: i32 [[#@LINE-1]], i32 20, i32 0, i32 0, {{.*}}@[[NODE]]{{[,)]? ?.*}} }, section "mdebug_sites"
  struct node *b = malloc(sizeof *b);
  // CHECK-DAG: i32 [[#@LINE-1]], i32 20, i32 0, i32 0, {{.*}}@[[NODE]]{{[,)]? ?.*}} }, section "mdebug_sites"
  long *c = malloc(n * sizeof(long));
  // CHECK-DAG: i32 [[#@LINE-1]], i32 13, i32 0, i32 0, {{.*}}@[[LONGS]]{{[,)]? ?.*}} }, section "mdebug_sites"
  struct node *d = calloc(n, sizeof(struct node));
  // CHECK-DAG: i32 [[#@LINE-1]], i32 20, i32 1, i32 0, {{.*}}@[[NODES]]{{[,)]? ?.*}} }, section "mdebug_sites"
  struct node *e = calloc(1, sizeof *e);
  // CHECK-DAG: i32 [[#@LINE-1]], i32 20, i32 1, i32 0, {{.*}}@[[NODE]]{{[,)]? ?.*}} }, section "mdebug_sites"
  char *f = (char *)malloc(n);
  // CHECK-DAG: i32 [[#@LINE-1]], i32 21, i32 0, i32 0, {{.*}}@[[CHAR]]{{[,)]? ?.*}} }, section "mdebug_sites"
  point_t *g = malloc(n);
  // CHECK-DAG: i32 [[#@LINE-1]], i32 16, i32 0, i32 0, {{.*}}@[[POINT]]{{[,)]? ?.*}} }, section "mdebug_sites"
  a = realloc(a, n);
  // CHECK-DAG: i32 [[#@LINE-1]], i32 7, i32 2, i32 0, {{.*}}@[[NODE]]{{[,)]? ?.*}} }, section "mdebug_sites"
  int *h;
  posix_memalign((void **)&h, 64, n);
  // CHECK-DAG: i32 [[#@LINE-1]], i32 3, i32 5, i32 0, {{.*}}@[[INT]]{{[,)]? ?.*}} }, section "mdebug_sites"
  short *i = NEW(short);
  // CHECK-DAG: i32 [[#@LINE-1]], i32 14, i32 0, i32 0, {{.*}}@[[SHORT]]{{[,)]? ?.*}} }, section "mdebug_sites"
  void *j = malloc(n);
  // CHECK-DAG: i32 [[#@LINE-1]], i32 13, i32 0, i32 0, {{(ptr|i8\*)}} null }, section "mdebug_sites"
  free(b);
  // CHECK-DAG: i32 [[#@LINE-1]], i32 3, i32 4, i32 0, {{(ptr|i8\*)}} null }, section "mdebug_sites"
  free(c), free(d), free(e), free(f), free(g), free(h), free(i), free(j);
  return a;
}

// NOFRONT-NOT: c"struct node\00"
// NOFRONT: @__mdebug_site{{.*}} = private global
// NOFRONT-NOT: c"struct node\00"
