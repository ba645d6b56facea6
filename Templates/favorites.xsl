<?xml version="1.0" encoding="UTF-8"?>
<!--
  Vitrine default theme: the favorites page of the random-image page. $page is the @id of the
  <favorites> element; $root is ''. The favorites live in the browser (localStorage), so the list is
  drawn by random.js; without JavaScript or storage the page says so.
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">

  <xsl:import href="random.xsl"/>

  <xsl:output method="html" encoding="UTF-8" indent="no" doctype-system="about:legacy-compat"/>

  <xsl:template match="favorites" mode="body-class">favorites-page</xsl:template>

  <xsl:template match="favorites" mode="title">
    <xsl:text>Favorites — </xsl:text>
    <xsl:value-of select="/gallery/title"/>
  </xsl:template>

  <xsl:template match="favorites" mode="card-description">
    <xsl:value-of select="concat('The favorite images of ', /gallery/title, ', kept in your browser')"/>
  </xsl:template>

  <xsl:template match="favorites" mode="head">
    <script src="{concat($root, 'assets/random.js')}" defer="defer"></script>
  </xsl:template>

  <xsl:template match="favorites" mode="bar">
    <xsl:call-template name="random-nav">
      <xsl:with-param name="here" select="'favorites'"/>
    </xsl:call-template>
  </xsl:template>

  <xsl:template match="favorites" mode="main">
    <h1>Favorites</h1>
    <p class="favorites-status" data-favorites-status="" aria-live="polite">
      <xsl:text>Favorites are kept in this browser and need JavaScript, which is off. The current image is on the </xsl:text>
      <a href="{concat($root, /gallery/random/@href)}">random image page</a>
      <xsl:text>.</xsl:text>
    </p>
    <ul class="favorites" data-favorites-list="" hidden=""></ul>
  </xsl:template>

</xsl:stylesheet>
