#!/bin/sh
echo 'Hello, proctor!' > greeting.txt
