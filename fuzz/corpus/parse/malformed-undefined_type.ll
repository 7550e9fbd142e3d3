; ERROR: 2:13: undefined type '%T'
@g = global %T zeroinitializer
